"""The sets shipped in seeds/<slug>/, read through each title's loader, so they are there from the start."""

from django.db import migrations


def store_shipped(apps, schema_editor):
    from cardsets.shipped import store_shipped as store

    store(apps.get_model("cardsets", "CardSet"))


class Migration(migrations.Migration):
    dependencies = [("cardsets", "0001_initial")]

    operations = [migrations.RunPython(store_shipped, migrations.RunPython.noop)]
