"""The service's VAPID key: made on the first run and kept, or given by the environment."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured
from py_vapid import Vapid

import config.settings as site
from games.channels import vapid
from tests.support.push_service import unb64url


def test_a_key_is_made_on_the_first_run_kept_private_and_read_again(tmp_path, monkeypatch):
    monkeypatch.setattr(site, "VAR_DIR", tmp_path)
    monkeypatch.delenv("VAPID_PRIVATE_KEY", raising=False)
    made = site._vapid_private_key()
    assert (tmp_path / "vapid_private_key").stat().st_mode & 0o777 == 0o600
    assert site._vapid_private_key() == made, "the same key on every later run"
    assert len(unb64url(made)) == 32
    Vapid.from_string(made)  # a valid P-256 key


def test_the_environment_key_wins(tmp_path, monkeypatch):
    monkeypatch.setattr(site, "VAR_DIR", tmp_path)
    monkeypatch.setenv("VAPID_PRIVATE_KEY", "  given  ")
    assert site._vapid_private_key() == "given"
    assert not (tmp_path / "vapid_private_key").exists()


def test_the_public_key_is_derived_and_a_wrong_pair_is_refused(settings):
    public = vapid.public_key()
    assert len(unb64url(public)) == 65 and unb64url(public)[0] == 4
    settings.VAPID_PUBLIC_KEY = public
    assert vapid.public_key() == public
    settings.VAPID_PUBLIC_KEY = "B" + public[1:-2] + "AA"
    with pytest.raises(ImproperlyConfigured, match="not the public half"):
        vapid.public_key()
    settings.VAPID_PUBLIC_KEY = ""
    settings.VAPID_PRIVATE_KEY = "not a key"
    with pytest.raises(ImproperlyConfigured, match="not a P-256 private key"):
        vapid.signer()
