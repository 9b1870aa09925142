"""What every browser game does the same way: the organiser's start, and following the newest email."""

from __future__ import annotations

import re

from games.models import DeliveredMail, Game
from tests.support.play import finish

PEOPLE = ["ana@example.com", "ben@example.com"]


def newest_link(email: str) -> str:
    """The seat link in the newest game email the local outbox delivered to this person."""
    mail = DeliveredMail.objects.filter(to=email).exclude(subject__startswith="You are playing").first()
    match = re.search(r"(http://\S+/play/\S+/)", mail.body_text)
    assert match, f"no seat link in the email to {email}"
    return match.group(1)


def submit(page, target) -> None:
    """Click what sends a form (a selector or a locator) and wait for the answer's page to be
    parsed: a bare click returns once the new page is committed, and reading it then can find an
    empty document (CI saw page.content() return '' right after "Ask for a seat")."""
    with page.expect_navigation(wait_until="domcontentloaded"):
        if isinstance(target, str):
            page.click(target)
        else:
            target.click()


def one_tap(page) -> bool:
    """Whether the decision is one choice, which a tap on an option or its card sends at once
    (static/titles/tap.js): then there is no Send to press after it (unless the page queues steps). Waits until the script has
    bound the form (a tap before that only ticks the option, as without script)."""
    if page.locator("form.prompt[data-kind='choose']").count() != 1:
        return False
    page.locator("form.prompt[data-tap-bound]").wait_for(state="attached")
    # a form that queues several steps before one send (Café's grid) takes a tap as a pick
    return page.locator("form.prompt[data-queue]").count() == 0


def organiser_starts(page, base: str, title: str, name: str, seats: list[str], options: dict[str, str] | None = None):
    """Sign in as the test organiser, create a game in the new-game form, start it; returns the Game."""
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", "org@example.com")
    page.fill("#id_password", "pw-organiser-1")
    page.click("button.button")
    page.goto(f"{base}/games/new/?title={title}")
    page.fill("#id_name", name)
    page.fill("#id_seats", "\n".join(seats))
    for field, value in (options or {}).items():
        page.fill(f"#id_{field}", value)
    page.click("text=Create game")
    submit(page, "text=Start the game")
    assert "The game has started" in page.content()
    return Game.objects.get(name=name)


def turns(game: Game, pages: tuple, in_browser: int):
    """Each time a person is asked, open their newest email's link on their page (person 0 on the
    first page, a phone; person 1 on the second) and yield (person, page). After `in_browser` such
    waits the rest of the game is played through the write path as the title's bot would answer
    (a whole game in the browser took a minute per title; the pages are the same each turn)."""
    for _ in range(in_browser):
        game.refresh_from_db()
        if game.status == Game.Status.ENDED:
            return
        person = next(i for i in sorted(game.engine.prompts(game.state)) if i < 2)
        page = pages[person]
        page.goto(newest_link(PEOPLE[person]))
        assert page.locator("form.prompt").count() == 1, "the newest email's link opens the decision"
        yield person, page
    finish(game)
