"""PostgreSQL: compress the large JSON columns with lz4 instead of pglz (issue 13).

Game states and outbox contexts are a few KB each, over the size at which PostgreSQL compresses a
value; the sweep writes hundreds per batch, and pglz cost the database more CPU than the batch's
own queries. lz4 needs PostgreSQL 14 or later built with it (Debian's is): elsewhere, and on
SQLite, this changes nothing. Values already stored keep their compression until rewritten.
"""

from django.db import migrations

COLUMNS = [("games_game", "state"), ("games_notification", "context"), ("games_event", "payload")]


def set_compression(method: str):
    def run(apps, schema_editor):
        connection = schema_editor.connection
        if connection.vendor != "postgresql" or connection.pg_version < 140000:
            return
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY(enumvals)"
            )
            if method == "lz4" and cursor.fetchone() is None:
                return  # a server built without lz4
            for table, column in COLUMNS:
                cursor.execute(f'ALTER TABLE "{table}" ALTER COLUMN "{column}" SET COMPRESSION {method}')

    return run


class Migration(migrations.Migration):
    dependencies = [("games", "0008_bounded_numbers")]

    operations = [migrations.RunPython(set_compression("lz4"), set_compression("pglz"))]
