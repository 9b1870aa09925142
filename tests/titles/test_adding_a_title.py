"""Adding a fifth title is a package, its shipped files and its tests: nothing else.

A two-player toy title is written into a temporary folder as a package (its TITLE, drawing, card
set kind with its own shipped file, page template and CSS), registered from there, and then seen
everywhere a title shows: offered on the new-game form and created from it, its shipped set stored
by the step after migrations and listed on /cardsets/, played to its end through the write path,
and drawn on its seat page with its stylesheet. No file of the project is written or changed.
"""

from __future__ import annotations

import random
from pathlib import Path
from textwrap import dedent

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from accounts.models import User
from cardsets.models import CardSet
from games import links
from games.actions import play, replay
from games.engine.prompts import prompt_key
from games.models import Game
from games.titles import register_package, unregister

pytestmark = pytest.mark.django_db(transaction=True)

ROOT = Path(__file__).resolve().parents[2]
SLUG = "toy_pick"  # the package's name: its slug, its templates' and static files' namespace

PACKAGE = {
    "__init__.py": '''
        """Toy Pick: two players take turns picking a card from a row; the most points win."""

        from __future__ import annotations

        from pathlib import Path

        from games.engine import Choose, IllegalMove, Option, Outcome, TitleBase, entry
        from games.engine.log import read

        from . import cards, drawing


        class ToyPick(TitleBase):
            slug = "toy_pick"
            name = "Toy Pick"
            min_players = 2
            max_players = 2
            options_schema = []
            folder = Path(__file__).parent
            page_template = "table.html"
            drawing = drawing
            card_face = staticmethod(drawing.card_face)
            cardset_kind = cards.CARDSET
            load_cardset = staticmethod(cards.load_cardset)

            def setup(self, players, options, rng):
                cs = options.get("cardset") or cards.load_cardset()
                row = [c["id"] for c in cs["cards"]]
                rng.shuffle(row)
                points = {c["id"]: c["points"] for c in cs["cards"]}
                names = {c["id"]: c["name"] for c in cs["cards"]}
                return {"players": players, "row": row, "points": points, "names": names,
                        "taken": [[], []], "turn": 0, "log": [entry("The cards are laid out.")]}

            def prompts(self, state):
                if not state["row"]:
                    return {}
                opts = tuple(Option(c, state["names"][c]) for c in state["row"])
                return {state["turn"]: Choose("Pick a card", opts)}

            def apply(self, state, seat, answer, rng):
                prompt = self.prompts(state).get(seat)
                if prompt is None:
                    raise IllegalMove("It is not your turn.")
                card = prompt.validate(answer)
                taken = [list(t) for t in state["taken"]]
                taken[seat].append(card)
                log = [*state["log"], entry(f"{state['players'][seat]} took {state['names'][card]}.")]
                row = [c for c in state["row"] if c != card]
                return {**state, "row": row, "taken": taken, "turn": 1 - seat, "log": log}

            def view(self, state, seat):
                scores = [sum(state["points"][c] for c in t) for t in state["taken"]]
                return {"status": f"{len(state['row'])} cards left", "panels": [],
                        "log": read(state["log"], seat),
                        "data": {"row": state["row"], "scores": scores}}

            def outcome(self, state):
                if state["row"]:
                    return None
                scores = {i: sum(state["points"][c] for c in t) for i, t in enumerate(state["taken"])}
                best = max(scores.values())
                return Outcome(scores, {i: [("Cards", s)] for i, s in scores.items()},
                               [i for i, s in scores.items() if s == best])

            def default_answer(self, state, seat):
                return state["row"][0]

            def bot_answer(self, state, seat, rng):
                return rng.choice(state["row"])


        TITLE = ToyPick()
    ''',
    "cards.py": '''
        """The toy's card set: seeds/cards.yaml beside this file."""

        from pathlib import Path

        from games.engine.cards import CardDataError, SetKind, content_hash, load_yaml


        def build_cardset(root, read=load_yaml):
            data = read(root / "cards.yaml")
            if not isinstance(data, dict) or not isinstance(data.get("cards"), list):
                raise CardDataError(f"{root}/cards.yaml: a list of cards under 'cards'")
            cs = {"name": data.get("name", ""), "cards": data["cards"]}
            cs["hash"] = content_hash(cs)
            return cs


        def load_cardset():
            return build_cardset(Path(__file__).parent / "seeds")


        CARDSET = SetKind(
            slug="toy_pick",
            files=("cards.yaml",),
            lists={"cards.yaml": "cards"},
            build=build_cardset,
            published={"cards.yaml": 4},
            folder=Path(__file__).parent / "seeds",
        )
    ''',
    "drawing.py": '''
        """The toy's table as pictures: each card in the row a small SVG."""

        from games.engine.svg import Face, card_svg


        def catalogue(state):
            return state["names"]


        def draw(view, names, prompt, seat, say=str):
            return {"row": [{"id": c, "svg": card_svg(Face(name=names[c], label=names[c]))} for c in view["data"]["row"]],
                    "scores": view["data"]["scores"], "seat": seat}


        def card_face(data, file, key, say=str):
            card = next((c for c in data["cards"] if c["id"] == key), None)
            return card_svg(Face(name=card["name"], label=card["name"])) if card else ""
    ''',
    "templates/table.html": """
        {% load static drawing %}{% draw_table game view prompt as pic %}
        <link rel="stylesheet" href="{% static 'titles/toy_pick/table.css' %}">
        <section class="toy-row" data-drawn-for="{{ pic.seat }}">{% for c in pic.row %}{{ c.svg|safe }}{% endfor %}</section>
        <p class="toy-scores">Scores: {{ pic.scores|join:" - " }}</p>
    """,
    "static/table.css": ".toy-row { display: flex; gap: .5rem; }\n",
    "seeds/cards.yaml": """
        name: Toy Pick's four cards
        cards:
          - {id: sun, name: Sun, points: 4}
          - {id: moon, name: Moon, points: 3}
          - {id: star, name: Star, points: 2}
          - {id: comet, name: Comet, points: 1}
    """,
}


def project_files() -> set[str]:
    """Every file (and its size and time) where a title could leave one in the project."""
    out = set()
    for folder in ("games", "cardsets", "seeds", "templates", "static", "config"):
        for path in (ROOT / folder).rglob("*"):
            if path.is_file() and "__pycache__" not in path.parts:
                stat = path.stat()
                out.add(f"{path.relative_to(ROOT)} {stat.st_size} {stat.st_mtime_ns}")
    return out


@pytest.fixture
def toy(tmp_path, transactional_db):
    folder = tmp_path / SLUG
    for name, text in PACKAGE.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(dedent(text).lstrip())
    title = register_package(folder)
    yield title
    unregister(SLUG)  # before the database is emptied, so the step after that stores no toy set


def test_a_fifth_title_is_a_package_found_through_its_title(toy):
    before = project_files()
    host = Client()
    host.force_login(User.objects.for_email("host@example.org"))

    # its shipped set is stored by the step that ends every migrate (no migration of its own), and
    # listed with the others
    call_command("migrate", verbosity=0)
    shipped = CardSet.objects.get(title=SLUG, check_status="shipped")
    assert shipped.name == "Toy Pick's four cards" and shipped.usable
    listed = host.get(reverse("cardsets:list")).content.decode()
    assert "Toy Pick&#x27;s four cards" in listed and SLUG in listed
    preview = host.get(reverse("cardsets:preview", args=[shipped.pk])).content.decode()
    assert preview.count("<svg") >= 4 and "Comet" in preview

    # offered on the new-game form, and created from it with its shipped set
    form = host.get(reverse("game-new") + f"?title={SLUG}").content.decode()
    assert f'<option value="{SLUG}" selected>Toy Pick</option>' in form
    posted = host.post(
        reverse("game-new"),
        {"title": SLUG, "name": "Toy night", "seats": "host@example.org\nfriend@example.org", "cardset": shipped.pk},
    )
    assert posted.status_code == 302, posted.content.decode()[:2000]
    game = Game.objects.get(name="Toy night")
    assert game.title == SLUG
    assert host.post(reverse("game-start", args=[game.pk])).status_code == 302

    # drawn on its seat page by its own template, with its own stylesheet
    game.refresh_from_db()
    seat = game.seats.get(index=min(toy.prompts(game.state)))
    page = Client().get(reverse("seat", args=[links.token_for(seat)])).content.decode()
    assert f'<section class="toy-row" data-drawn-for="{seat.index}">' in page
    assert page.count('<svg class="pic-card-svg"') == 4
    assert "/static/titles/toy_pick/table.css" in page

    # played to its end through the write path; the log replays to the projection
    rng = random.Random(SLUG)
    while game.status != Game.Status.ENDED:
        prompts = toy.prompts(game.state)
        (index, prompt), *_ = prompts.items()
        play.submit(game.pk, index, toy.bot_answer(game.state, index, rng), game.version, via="web",
                    prompt_key=prompt_key(prompt))  # fmt: skip
        game.refresh_from_db()
    assert not replay.rebuild_differs(game)
    assert sum(toy.outcome(game.state).scores.values()) == 10

    assert project_files() == before, "adding a title wrote no file of the project"
