"""Reading an upload: every bound and every bad shape is refused with a message naming the file."""

from __future__ import annotations

from dataclasses import replace

import pytest

from cardsets.exporting import export_zip
from cardsets.forms import limits as service_limits
from cardsets.kinds import KINDS, shipped_files
from cardsets.reading import Limits, UploadError, read_upload
from games.engine.cards import CardDataError
from games.titles.cafe_baras.cards import load_cardset
from tests.cardsets.helpers import as_uploads, as_zip, baras_files, card

BARAS = KINDS["cafe_baras"]
SMALL = Limits(upload_bytes=300_000, member_bytes=200_000, zip_bytes=400_000, zip_members=8)


def refused(uploads, limits=SMALL) -> str:
    with pytest.raises(UploadError) as e:
        read_upload(BARAS, uploads, limits)
    return str(e.value)


@pytest.mark.parametrize("slug", sorted(KINDS))
def test_every_shipped_set_builds_to_the_loaders_hash_and_survives_export_and_upload(slug):
    files = shipped_files(slug)
    data, _warnings = KINDS[slug].check(files)
    blob = export_zip(KINDS[slug], files, "Shipped", "words")
    again = read_upload(KINDS[slug], [("set.zip", blob)], service_limits())
    assert KINDS[slug].check(again)[0]["hash"] == data["hash"]
    if slug == "cafe_baras":
        assert data["hash"] == load_cardset()["hash"]


def test_separate_yaml_files_and_a_zip_in_a_folder_read_the_same():
    files = baras_files()
    flat = read_upload(BARAS, as_uploads(files), SMALL)
    nested = read_upload(BARAS, [("x.zip", as_zip([(f"myset/{n}", b) for n, b in as_uploads(files)]))], SMALL)
    assert flat == nested == files


@pytest.mark.parametrize(
    ("uploads", "words"),
    [
        ([("set.yaml", b"x" * 300_001)], "at most 300,000"),
        ([("set.yaml", b"a: [1, 2")], "set.yaml: not valid YAML"),
        ([("set.yaml", b"!!python/object/apply:os.system ['true']")], "set.yaml: uses a YAML tag that is not allowed"),
        ([("set.yaml", b"\xff\xfe not utf-8")], "set.yaml: not UTF-8"),
        ([("set.yaml", b"when: 2024-01-01")], "not plain data"),
        ([("set.yaml", b"1: one")], "is not text"),
        (
            [
                (
                    "set.yaml",
                    b"a: &a [x,x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: [*d,*d,*d,*d,*d,*d,*d,*d,*d,*d]",
                )
            ],
            "too many values",
        ),
        ([("notes.txt", b"a: 1")], "notes.txt: not one of this game's files"),
        ([("set.yaml", b"a: 1")], "cafe_cards.yaml, guests.yaml, counters.yaml: missing"),
        ([("set.yaml", b"a: 1"), ("dir/set.yaml", b"a: 1")], "set.yaml: given twice"),
        ([], "Choose the set's files"),
    ],
)
def test_bad_files_are_refused_with_the_file_named(uploads, words):
    assert words in refused(uploads)


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("../set.yaml", "not a file name"),
        ("/etc/set.yaml", "not a file name"),
        ("a/b/set.yaml", "not a file name"),
        ("..\\..\\set.yaml", "not a file name"),
        ("evil.py", "not one of this game's files"),
    ],
)
def test_zip_members_that_climb_or_are_foreign_are_refused(name, words):
    assert words in refused([("x.zip", as_zip([(name, b"a: 1")]))])


def test_zip_bombs_and_crowded_zips_are_refused_before_unpacking():
    assert "unpacks to more than" in refused([("x.zip", as_zip([("set.yaml", b"#" * 500_000)]))])
    assert "more than 200,000 bytes unpacked" in refused(
        [("x.zip", as_zip([("set.yaml", b"#" * 250_000)]))], replace(service_limits(), member_bytes=200_000)
    )
    assert "holds 9 files" in refused([("x.zip", as_zip([(f"{i}/set.yaml", b"a: 1") for i in range(9)]))])
    assert "could not be read" in refused([("x.zip", b"PK\x03\x04 not really a zip")])


def test_the_titles_checks_name_file_card_and_field_and_counts_are_warnings():
    files = baras_files()
    card(files, "latte")["customer"]["wants"][0]["food"] = "Sushi"
    with pytest.raises(CardDataError, match=r"cafe_cards.yaml: card 'latte', field 'customer.wants\[1\].food'"):
        BARAS.check(files)
    files = baras_files()
    files["cafe_cards.yaml"]["cards"].append(dict(card(files, "latte")))
    with pytest.raises(CardDataError, match="card 'latte', field 'id': used by another card"):
        BARAS.check(files)
    files = baras_files()
    files["cafe_cards.yaml"]["cards"].pop()
    files["guests.yaml"] = {"guests": files["guests.yaml"]}
    with pytest.raises(CardDataError, match="guests.yaml: expected a mapping with a list under 'guests'"):
        BARAS.check(files)
    files = baras_files()
    files["cafe_cards.yaml"]["cards"].pop()
    assert BARAS.check(files)[1] == ["cafe_cards.yaml: 82 cards; the published box has 83."]
