"""What each seat may see: face-down agendas, sealed answers, the deck order; all after the end."""

from __future__ import annotations

import json

from games.titles.cafe_romantica import TITLE

from .helpers import CARDS, acting, drafted, rng, said, seat


def blob(state, who) -> str:
    return json.dumps(TITLE.view(state, who), ensure_ascii=False)


def test_view_face_down_agendas_show_cost_only_to_others():
    state = drafted(3)
    for s in range(3):
        for a in state["seats"][s]["agendas"]:
            ag = CARDS["agendas"][a]
            assert ag["name"] in blob(state, s)
            for other in (None, *(o for o in range(3) if o != s)):
                assert ag["name"] not in blob(state, other) and f'"{a}"' not in blob(state, other)
    costs = [ag["cost"] for ag in TITLE.view(state, 1)["data"]["seats"][0]["agendas"]]
    assert costs == [CARDS["agendas"][a]["cost"] for a in state["seats"][0]["agendas"]]


def test_view_completed_agenda_is_public():
    state = drafted(3)
    a = state["seats"][0]["agendas"][0]
    state = seat(state, 0, done=[a])
    assert CARDS["agendas"][a]["name"] in blob(state, 1)


def test_view_never_shows_the_deck_order():
    state = drafted(3)
    data = TITLE.view(state, 0)["data"]
    assert data["deck_count"] == len(state["deck"])
    text = blob(state, 0)
    assert not any(f'"{c}"' in text for c in state["deck"])


def test_view_shape():
    state = acting(drafted(2), [0, 1], hearts=[3, 3])
    v = TITLE.view(state, 0)
    assert set(v) == {"status", "panels", "log", "data"} and "P0 to act" in said(v["status"], state)
    assert v["panels"][1]["cards"] and all({"id", "name", "kind", "lines"} <= set(c) for c in v["panels"][1]["cards"])


def test_view_shows_everything_once_the_game_is_over():
    state = acting(drafted(3), [0, 1, 2], hearts=[30, 0, 0])
    state = seat(state, 0, done=state["seats"][0]["agendas"][:2])
    state = TITLE.apply(state, 0, f"agenda:{state['seats'][0]['agendas'][2]}", rng())
    assert TITLE.outcome(state) is not None
    for s in range(3):
        for a in state["seats"][s]["agendas"]:
            assert CARDS["agendas"][a]["name"] in blob(state, None)
    assert "Game over" in said(TITLE.view(state, None)["status"], state)


def test_invariants_catch_a_leaked_agenda(monkeypatch):
    """The bot-games check would fail if a view or the log ever named another seat's agenda."""
    from games.titles.cafe_romantica import invariants, view

    state = drafted(3)
    invariants.check_invariants(state)
    secret = CARDS["agendas"][state["seats"][0]["agendas"][0]]["name"]
    real = view.view_body

    def leaky(state_, who):
        out = real(state_, who)
        out["panels"].append({"title": "oops", "lines": [secret]})
        return out

    monkeypatch.setattr(view, "view_body", leaky)
    try:
        invariants.check_invariants(state)
    except AssertionError as e:
        assert "seat 0" in str(e)
    else:
        raise AssertionError("a leaked agenda went unnoticed")
    monkeypatch.setattr(view, "view_body", real)
    leaked = dict(state, log=state["log"] + [{"text": f"P0 holds {secret}"}])
    try:
        invariants.check_invariants(leaked)
    except AssertionError as e:
        assert "public log" in str(e)
    else:
        raise AssertionError("a leaked agenda in the log went unnoticed")
