"""Create the first organiser login if there is none, and print its password once."""

import secrets

from django.core.management.base import BaseCommand

from accounts.models import User


class Command(BaseCommand):
    help = "Create an organiser login on first run and print its password (only that once)."

    def add_arguments(self, parser):
        parser.add_argument("--email", default="organiser@localhost")

    def handle(self, email, **_):
        if User.objects.filter(is_staff=True).exists():
            self.stdout.write("Organiser login already exists (its password was printed on first run).")
            return
        password = secrets.token_urlsafe(12)
        User.objects.create_superuser(email, password, name="Organiser")
        self.stdout.write(f"Organiser login created. Email: {email}  Password: {password}  (shown only this once)")
