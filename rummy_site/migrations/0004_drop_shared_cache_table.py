"""What a tournament's version computes is kept by each process alone (tournaments.versions):
the shared cache's table holds nothing any more."""

from django.core.management import call_command
from django.db import migrations


def drop(apps, schema_editor):
    schema_editor.execute("DROP TABLE IF EXISTS shared_cache")


def create(apps, schema_editor):
    call_command("createcachetable", "shared_cache", database=schema_editor.connection.alias, verbosity=0)


class Migration(migrations.Migration):
    dependencies = [("rummy_site", "0003_shared_cache_table")]
    operations = [migrations.RunPython(drop, create)]
