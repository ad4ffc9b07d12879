"""The shared cache's table (settings.CACHES["shared"]): what one application server computed
from the database, read by the others."""

from django.core.management import call_command
from django.db import migrations


def create(apps, schema_editor):
    call_command("createcachetable", "shared_cache", database=schema_editor.connection.alias, verbosity=0)


def drop(apps, schema_editor):
    schema_editor.execute("DROP TABLE IF EXISTS shared_cache")


class Migration(migrations.Migration):
    dependencies = [("rummy_site", "0002_drop_throttle_cache_table")]
    operations = [migrations.RunPython(create, drop)]
