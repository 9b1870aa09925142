"""A new game: anyone signed in picks a title, names the seats and sets the clock; they host it
(host.py) from then on."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from cardsets import store as cardset_store
from games.actions import organise
from games.engine import OptionsError
from games.forms.new_game import NewGameForm, menu_title
from games.messages import say
from games.titles import get_title


@login_required
def game_new(request: HttpRequest) -> HttpResponse:
    slug = request.POST.get("title") or request.GET.get("title") or ""
    if request.method != "POST":
        slug = menu_title(slug)  # the title the menu shows is the one the form posts
    try:
        schema = get_title(slug).options_schema if slug else []
    except KeyError:
        schema = []
    sets = cardset_store.choices(request.user, slug) if slug else []
    form = NewGameForm(request.POST or None, initial={"title": slug}, schema=schema, cardsets=sets, slug=slug)
    if request.method == "POST" and form.is_valid():
        try:
            game = organise.create_game(
                request.user,
                form.cleaned_data["title"],
                form.cleaned_data["name"],
                {**form.options(), **cardset_store.chosen(request.user, slug, form.cleaned_data.get("cardset"))},
                form.cleaned_data["seats"],
                **form.clock_settings(),
            )
        except OptionsError as e:
            form.add_error(None, say(e.args[0]) if e.args else str(e))
        else:
            messages.success(request, _("Game created. Check the seats, then start it."))

            return redirect(game)
    return render(request, "games/game_new.html", {"form": form})
