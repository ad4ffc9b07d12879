"""The database table of the "throttle" cache (API throttle counts shared by every server), made
by migrate like every other table, so no deployment step can forget it."""

from django.core.management import call_command
from django.db import migrations


def create(apps, schema_editor):
    call_command("createcachetable", "api_throttle", database=schema_editor.connection.alias, verbosity=0)


def drop(apps, schema_editor):
    schema_editor.execute("DROP TABLE IF EXISTS api_throttle")


class Migration(migrations.Migration):
    dependencies = []
    operations = [migrations.RunPython(create, drop)]
