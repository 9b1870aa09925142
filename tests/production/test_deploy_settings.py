"""`manage.py check --deploy` is clean with the production settings the README lists."""

from __future__ import annotations

import secrets
import subprocess
import sys

import pytest

from tests.production.conftest import ROOT
from tests.production.test_embedded_default import embedded_env

pytestmark = pytest.mark.production

# Exactly the variables README.md's "Running it for real" section tells an operator to set.
PRODUCTION_ENV = {
    "SECRET_KEY": secrets.token_urlsafe(64),
    "DEBUG": "false",
    "ALLOWED_HOSTS": "turns.example.org",
    "SITE_URL": "https://turns.example.org",
    "BEHIND_PROXY": "true",
    "SECURE_SSL_REDIRECT": "true",
    "SECURE_HSTS_SECONDS": "31536000",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS": "true",
    "SECURE_HSTS_PRELOAD": "true",
    "DATABASE_URL": "postgres://cafe:secret@db.internal:5432/cafe_turns",
    "REDIS_URL": "redis://redis.internal:6379/0",
    "EMAIL_BACKEND": "anymail.backends.mailgun.EmailBackend",
    "ANYMAIL_MAILGUN_API_KEY": "key-not-a-real-one",
    "DEFAULT_FROM_EMAIL": "Café turns <turns@example.org>",
}


def test_check_deploy_is_clean_with_production_settings(tmp_path):
    env = embedded_env(tmp_path, **PRODUCTION_ENV)
    done = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, f"check --deploy is not clean:\n{done.stdout}\n{done.stderr}"
    assert "no issues" in done.stdout


def test_production_settings_come_from_the_environment(tmp_path):
    env = embedded_env(tmp_path, **PRODUCTION_ENV)
    probe = (
        "import django; django.setup(); from django.conf import settings as s; "
        "print(s.DATABASES['default']['ENGINE'], s.DATABASES['default']['OPTIONS']['server_side_binding'], s.DATABASES['default']['OPTIONS']['prepare_threshold'], s.DATABASES['default']['HOST'], s.CELERY_BROKER_URL, "
        "s.MAILERS['default']['BACKEND'], s.ANYMAIL['MAILGUN_API_KEY'], s.DEBUG, s.SESSION_COOKIE_SECURE, "
        "s.CSRF_TRUSTED_ORIGINS)"
    )
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [
        "config.postgresql",
        "True",
        "5",
        "db.internal",
        "redis://redis.internal:6379/0",
        "anymail.backends.mailgun.EmailBackend",
        "key-not-a-real-one",
        "False",
        "True",
        "['https://turns.example.org']",
    ]


@pytest.mark.parametrize(("given", "printed"), [("none", "None"), (" 0 ", "0"), ("12", "12")])
def test_prepared_statements_can_be_tuned_or_turned_off_for_a_pooler(tmp_path, given, printed):
    env = embedded_env(tmp_path, **PRODUCTION_ENV, DATABASE_PREPARE_THRESHOLD=given)
    probe = "import django; django.setup(); from django.conf import settings as s; print(s.DATABASES['default']['OPTIONS']['prepare_threshold'])"
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == printed


def test_a_prepare_threshold_that_is_not_a_number_is_refused_by_name(tmp_path):
    env = embedded_env(tmp_path, **PRODUCTION_ENV, DATABASE_PREPARE_THRESHOLD="-1")
    done = subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0
    assert "DATABASE_PREPARE_THRESHOLD must be a number of runs or 'none', not '-1'" in done.stderr
