"""The API throttle counts moved to one atomic row per key and window (games.RateCount), so the
throttle cache's table holds nothing any more."""

from django.core.management import call_command
from django.db import migrations


def drop(apps, schema_editor):
    schema_editor.execute("DROP TABLE IF EXISTS api_throttle")


def create(apps, schema_editor):
    call_command("createcachetable", "api_throttle", database=schema_editor.connection.alias, verbosity=0)


class Migration(migrations.Migration):
    dependencies = [("rummy_site", "0001_throttle_cache_table")]
    operations = [migrations.RunPython(drop, create)]
