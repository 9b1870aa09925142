"""Once stored the shipped sets. Kept as history: the shipped sets are now stored after every
`migrate` (cardsets/shipped.py, on post_migrate), which also covers a title added later, so this
step does nothing."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("cardsets", "0001_initial")]

    operations = [migrations.RunPython(migrations.RunPython.noop, migrations.RunPython.noop)]
