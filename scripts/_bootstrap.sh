# Shared by scripts/serve and scripts/test (sourced, not run): find a Python >= 3.12, make .venv,
# install the project into it when pyproject.toml changed.
#
# After sourcing: ROOT (the repo), VENV, PY (the venv's python); the venv's bin/ is first on PATH.

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"
cd "$ROOT"

say() { printf '%s\n' "$*" >&2; }
die() { say "error: $*"; exit 1; }

# A python >= 3.12 (Django 6 needs it): on PATH first, then pyenv's builds.
find_python() {
    local c
    for c in python3.14 python3.13 python3.12 python3; do
        if command -v "$c" >/dev/null 2>&1 && python_ok "$(command -v "$c")"; then
            command -v "$c"
            return 0
        fi
    done
    for c in "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.1[2-9]*/bin/python3.1? /usr/local/bin/python3.1[2-9]; do
        if [ -x "$c" ] && python_ok "$c"; then
            echo "$c"
            return 0
        fi
    done
    return 1
}

python_ok() {
    "$1" -c 'import sys, venv, ensurepip; sys.exit(0 if sys.version_info >= (3, 12) else 1)' >/dev/null 2>&1
}

ensure_venv() {
    if [ -x "$VENV/bin/python" ] && ! python_ok "$VENV/bin/python"; then
        say "bootstrap: .venv has $("$VENV/bin/python" -V 2>&1), older than 3.12: making it anew"
        rm -rf "$VENV"
    fi
    if [ ! -x "$VENV/bin/python" ]; then
        local base
        base="$(find_python)" || die "no Python 3.12 or newer found (tried python3.14..python3.12, python3 on PATH and ~/.pyenv/versions/3.1[2-9]*). Install one (e.g. 'apt-get install python3.12-venv' or pyenv) and run this again."
        say "bootstrap: creating .venv with $("$base" -V 2>&1) ($base)"
        "$base" -m venv "$VENV" || die "could not create .venv with $base"
    fi
    PY="$VENV/bin/python"
    export PATH="$VENV/bin:$PATH"
    export VIRTUAL_ENV="$VENV"

    # Install only when pyproject.toml changed since the last install (or it never happened).
    local stamp="$VENV/.cafe-turns-installed" want
    want="$(sha256sum "$ROOT/pyproject.toml" | cut -d' ' -f1) $ROOT"
    if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
        say "bootstrap: installing the project and its test tools into .venv (quiet; takes a minute the first time)"
        "$PY" -m pip install -qq --disable-pip-version-check -e "$ROOT[test]" || die "pip install failed"
        echo "$want" >"$stamp"
    fi
    # the translations Django reads: each catalogue's .mo, compiled from its .po when that changed
    (cd "$ROOT" && "$PY" manage.py catalogues compile >/dev/null) || die "compiling the translation catalogues failed"
}
