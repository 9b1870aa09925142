"""Same seeds, same games: compare two checkouts of the pure engines step by step.

Plays seeded bot games of every title (the `simulate` rule: seed f"{seed}-{i}", one generator per
step) and hashes, at every step, every seat's prompt (`to_dict`), every seat's `upcoming` prompt,
the answer, the state as JSON (insertion order kept, tuples told from lists) and, with --views,
every seat's and a spectator's view. Prints one digest per game.

  python bench/engine_equivalence.py --games 200                      # this checkout, digests
  python bench/engine_equivalence.py --games 200 --against /tmp/base  # compare with another checkout

The titles are those each checkout's registry lists (games.titles.slugs()), or --titles; titles
only one checkout has are named, not compared. --roundtrip also replays each step on a state
freshly loaded from JSON, as the service does. --drawings also hashes, at every step, the title's
drawing of every seat's and a spectator's view (what its page and email templates draw from), and
once per title its shipped card set's preview (the cards as the card set pages draw them); it
finds the drawing as TITLE.drawing, or in games/drawing/<slug>.py in a checkout from before the
drawings moved into their titles. No Django: the engines are pure, so this runs with the project's
python from any directory.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import importlib
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def canon(obj: Any) -> Any:
    """JSON data with tuples marked, so a list turned tuple (or back) shows as a difference."""
    if isinstance(obj, dict):
        return {"__d": [[k if isinstance(k, str) else ["__k", repr(k)], canon(v)] for k, v in obj.items()]}
    if isinstance(obj, tuple):
        return {"__t": [canon(v) for v in obj]}
    if isinstance(obj, list):
        return [canon(v) for v in obj]
    if obj is None or isinstance(obj, bool | int | float | str):
        return obj
    if dataclasses.is_dataclass(obj):
        return {"__dc": type(obj).__name__, "fields": canon(dataclasses.asdict(obj))}
    return {"__other": repr(obj)}


def _blob(obj: Any) -> bytes:
    return json.dumps(canon(obj), ensure_ascii=False, separators=(",", ":")).encode()


def drawing_of(title: Any) -> Any:
    """The title's drawing module: declared by TITLE, or (older checkouts) found by its slug."""
    drawing = getattr(title, "drawing", None)
    return drawing if drawing is not None else importlib.import_module(f"games.drawing.{title.slug}")


def preview_digest(slug: str) -> str:
    """The shipped card set's preview: every card as the card set pages show it (picture or words)."""
    from cardsets.kinds import KINDS, shipped_files
    from cardsets.preview import sections

    if slug not in KINDS:
        return "no card set"
    kind, files = KINDS[slug], shipped_files(slug)
    shown = sections(kind, files, kind.check(files)[0])
    return hashlib.sha256(
        _blob([[f, [[c.key, c.name, c.picture, c.lines, c.marks] for c in cards]] for f, cards in shown])
    ).hexdigest()


def play(title: Any, players: int, seed: str, views: bool, roundtrip: bool, drawings: bool = False) -> str:
    """One game's digest: every step's prompts, answer, state (and views, and their drawings)."""
    from games.engine.rng import step_rng

    # read with getattr: an older checkout's titles may not declare these
    shared = getattr(title, "shared_state_keys", ())
    drawing = drawing_of(title) if drawings else None
    h = hashlib.sha256()
    names = [f"Bot {i + 1}" for i in range(players)]
    state = title.setup(names, {}, step_rng(seed, 0))
    h.update(_blob({k: state[k] for k in shared}))
    upcoming = getattr(title, "upcoming", None)
    seq = 0
    while True:
        h.update(_blob({k: v for k, v in state.items() if k not in shared}))
        out = title.outcome(state)
        if views or out is not None:
            h.update(_blob([title.view(state, s) for s in [None, *range(players)]]))
        if out is not None:
            h.update(_blob(out))
            h.update(_blob({k: state[k] for k in shared}))
            return h.hexdigest()
        prompts = title.prompts(state)
        h.update(_blob({str(s): p.to_dict() for s, p in prompts.items()}))
        if drawing is not None:
            catalogue = drawing.catalogue(state)
            for s in [None, *range(players)]:
                asked = prompts[s].to_dict() if s in prompts else None
                h.update(_blob(drawing.draw(title.view(state, s), catalogue, asked, s)))
        if upcoming:
            h.update(_blob([(p.to_dict() if (p := upcoming(state, s)) else None) for s in range(players)]))
        seat = min(prompts)
        seq += 1
        if roundtrip:
            state = json.loads(json.dumps(state))
        answer = title.bot_answer(state, seat, step_rng(seed, seq))
        h.update(_blob([seat, answer]))
        state = title.apply(state, seat, answer, step_rng(seed, seq))
        if seq > 20_000:
            raise RuntimeError(f"game {seed}: no end")


def digests(args: argparse.Namespace, slug: str) -> list[str]:
    from games.titles import get_title

    title = get_title(slug)
    out = [f"preview {preview_digest(slug)}"] if args.drawings else []
    for i in range(args.games):
        try:
            out.append(play(title, args.players, f"{args.seed}-{i}", args.views, args.roundtrip, args.drawings))
        except Exception as e:  # noqa: BLE001 - an engine error is part of the behaviour compared
            out.append(f"error {type(e).__name__}: {e}")
    return out


def run_checkout(root: Path, args: argparse.Namespace) -> dict[str, list[str]]:
    """Digests from the engines of another checkout, in a child process importing from there."""
    cmd = [sys.executable, __file__, "--json", "--root", str(root), "--games", str(args.games)]
    cmd += ["--players", str(args.players), "--seed", args.seed] + (["--titles", *args.titles] if args.titles else [])
    cmd += ["--views"] * args.views + ["--roundtrip"] * args.roundtrip + ["--drawings"] * args.drawings
    done = subprocess.run(cmd, cwd=root, capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--players", type=int, default=3)
    p.add_argument("--seed", default="7")
    p.add_argument("--titles", nargs="+", help="slugs (default: every title the checkout's registry lists)")
    p.add_argument("--views", action="store_true", help="hash every seat's view at every step")
    p.add_argument("--roundtrip", action="store_true", help="reload the state from JSON before each step")
    p.add_argument("--drawings", action="store_true", help="hash every view's drawing and the card set previews")
    p.add_argument("--against", type=Path, help="another checkout to compare with")
    p.add_argument("--root", type=Path, default=ROOT, help=argparse.SUPPRESS)
    p.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.against is not None:
        base = run_checkout(args.against.resolve(), args)
        mine = run_checkout(ROOT, args)
        bad = 0
        for slug in sorted(set(base) ^ set(mine)):
            print(f"{slug}: only in {'this checkout' if slug in mine else args.against}, not compared")
        for slug in sorted(set(base) & set(mine)):
            games = [(a, b) for a, b in zip(base[slug], mine[slug], strict=True) if not a.startswith("preview")]
            diff = [i for i, (a, b) in enumerate(games) if a != b]
            errors = sum(b.startswith("error") for _, b in games)
            previews = [(a, b) for a, b in zip(base[slug], mine[slug], strict=True) if a.startswith("preview")]
            preview = next((" card preview " + ("same" if a == b else "DIFFERS") for a, b in previews), "")
            print(
                f"{slug}: {len(games)} games, {len(diff)} differ, {errors} engine errors"
                + (f" (first: game {args.seed}-{diff[0]})" if diff else "")
                + (";" + preview if preview else "")
            )
            bad += len(diff) + sum(a != b for a, b in previews)
        print("identical" if not bad else f"DIFFERENT: {bad} games")
        return 1 if bad else 0
    sys.path.insert(0, str(args.root))
    from games.titles import slugs

    result = {}
    for slug in args.titles or slugs():
        t0 = time.perf_counter()
        result[slug] = digests(args, slug)
        if not args.json:
            print(f"{slug}: {args.games} games in {time.perf_counter() - t0:.1f}s", file=sys.stderr)
    print(json.dumps(result) if args.json else "\n".join(f"{s} {d}" for s, ds in result.items() for d in ds))
    return 0


if __name__ == "__main__":
    sys.exit(main())
