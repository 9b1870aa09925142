"""Hostile input to every card set endpoint: never a server error, a refusal in words, nothing stored.

Deterministic (a seeded generator): uploads of random bytes, broken and hostile YAML, zips with
climbing, foreign, crowded or oversized members; forged ids and values for the check, the preview,
the export and the admin's card editor.
"""

from __future__ import annotations

import io
import random
import zipfile

import pytest
from django.test import Client
from django.urls import reverse

from cardsets.kinds import KINDS
from cardsets.models import CardSet
from cardsets.shipped import store_shipped
from tests.cardsets.helpers import as_uploads, baras_files

pytestmark = [pytest.mark.django_db, pytest.mark.filterwarnings("ignore:Duplicate name:UserWarning")]

NAMES = [
    "set.yaml",
    "cafe_cards.yaml",
    "guests.yaml",
    "counters.yaml",
    "../set.yaml",
    "/abs/set.yaml",
    "a/b/c/guests.yaml",
    "evil.py",
    "",
    "set.yaml\x00.txt",
    "ＳＥＴ.yaml",
    "x" * 300,
    "C:\\set.yaml",
    "dir/../../set.yaml",
]
YAML_BITS = [
    b"!!python/object/apply:os.system ['id']",
    b"a: &x [*x]",
    b"cards: {}",
    b"cards: [1, 2]",
    b"[",
    b"\xff\xfe",
    b"- !!binary aGVsbG8=",
    b"when: 2020-01-01",
    b"? [a, b]\n: c",
    b"cards:\n  - {id: a, id: b}",
    b"~",
    b"",
    b"a: " + b"[" * 200 + b"]" * 200,
    b"%YAML 1.1\n---\nx: 1",
    b"cards: !!set {a, b}",
]


def hostile_upload(rng: random.Random) -> list[tuple[str, bytes]]:
    pick = rng.randrange(5)
    if pick == 0:
        return [(rng.choice(NAMES), rng.randbytes(rng.randrange(0, 2000)))]
    if pick == 1:
        return [(rng.choice(NAMES), rng.choice(YAML_BITS)) for _ in range(rng.randrange(1, 5))]
    if pick == 2:
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_DEFLATED) as zf:
            for _ in range(rng.randrange(1, 30)):
                zf.writestr(rng.choice(NAMES) or "empty", rng.choice([*YAML_BITS, b"0" * 3_000_000]))
        return [("set.zip", buf.getvalue())]
    if pick == 3:
        files = as_uploads(baras_files())
        name, blob = files[rng.randrange(len(files))]
        cut = rng.randrange(len(blob))
        files[files.index((name, blob))] = (name, blob[:cut] + rng.choice(YAML_BITS) + blob[cut:])
        return files
    return [("set.zip", b"PK\x03\x04" + rng.randbytes(500))]


def post_upload(client: Client, uploads, title="cafe_baras"):
    posted = []
    for name, blob in uploads:
        f = io.BytesIO(blob)
        f.name = name or "unnamed"
        posted.append(f)
    return client.post(reverse("cardsets:upload"), {"title": title, "name": "Fuzz", "files": posted})


def test_hostile_uploads_are_refused_in_words_and_store_nothing(client, organiser):
    client.force_login(organiser)
    store_shipped(CardSet)
    before = CardSet.objects.count()
    rng = random.Random(17)
    for i in range(40):
        uploads = hostile_upload(rng)
        r = post_upload(client, uploads)
        if r.status_code == 302:  # an edit that left the set legal (inside a comment, say): stored as checked
            cs = CardSet.objects.get(name="Fuzz")
            assert KINDS["cafe_baras"].check(cs.files)[0]["hash"] == cs.content_hash and not cs.usable
            cs.delete()
            continue
        assert r.status_code == 400, (i, [n for n, _ in uploads])
        assert 'class="errorlist' in r.content.decode(), i
    assert CardSet.objects.count() == before


def test_forged_ids_and_values_on_every_endpoint_change_nothing(client, organiser):
    organiser.is_superuser = True
    organiser.save()
    client.force_login(organiser)
    store_shipped(CardSet)
    shipped = CardSet.objects.get(title="cafe_baras", check_status="shipped")
    before = list(CardSet.objects.values_list("pk", "content_hash", "check_status"))
    for pk in (0, 10**12, 2**63):
        for name in ("detail", "preview", "export"):
            assert client.get(f"/cardsets/{pk}/{'' if name == 'detail' else name + '/'}").status_code == 404
        assert client.post(f"/cardsets/{pk}/check/").status_code == 404
        assert client.get(f"/admin/cardsets/cardset/{pk}/cards/").status_code == 404
    assert client.get(reverse("cardsets:check", args=[shipped.pk])).status_code == 405
    url = reverse("admin:cardsets_cardset_cards", args=[shipped.pk])
    rng = random.Random(23)
    values = [
        "",
        "-1",
        "99999999999999999999",
        "abc",
        "\x00",
        "{",
        "!!python/name:os.system",
        "[" * 300,
        "yes",
        "ü" * 6000,
    ]
    for _ in range(15):
        data = {
            "file": rng.choice(["cafe_cards.yaml", "guests.yaml", "../x", ""]),
            "index": rng.choice(["0", "-1", "82", "83", "x", "1e9"]),
        }
        for key in (
            "id",
            "name",
            "kind",
            "cost",
            "score",
            "customer",
            "action",
            "needs",
            "provides",
            "points",
            "origin",
        ):
            data[f"c{data['index']}-{key}"] = rng.choice(values)
        r = client.post(url, data)
        assert r.status_code in (302, 400)
        if r.status_code == 400:
            assert "errorlist" in r.content.decode()
    for page in ("-1", "x", "99999999999999999999999"):
        assert client.get(url, {"page": page, "file": "../../etc"}).status_code == 200
    assert list(CardSet.objects.values_list("pk", "content_hash", "check_status")) == before
