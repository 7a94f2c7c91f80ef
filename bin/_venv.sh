# Sourced by bin/run and bin/test: make sure ./.venv exists and holds this project installed
# from pyproject.toml (with the optional extra named in $1, e.g. "test").
# Re-installs only when pyproject.toml changed since the last install.

venv_ensure() {
  local extra="${1:-}"
  local python="${PYTHON:-python3}"
  if ! command -v "$python" >/dev/null 2>&1; then
    echo "error: $python not found. Install Python 3.11+ (e.g. apt-get install -y python3 python3-venv)." >&2
    exit 1
  fi
  if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
    echo "error: Python 3.11+ is required, found $("$python" --version 2>&1)." >&2
    exit 1
  fi
  if [ ! -x .venv/bin/python ] || ! .venv/bin/python -c 'import sys' >/dev/null 2>&1; then
    echo "==> Creating virtual environment in .venv"
    rm -rf .venv
    "$python" -m venv .venv
    .venv/bin/python -m pip install -qq --upgrade pip
  fi
  local target="."
  [ -n "$extra" ] && target=".[${extra}]"
  local stamp=".venv/.installed-${extra:-base}"
  local want
  want="$(sha256sum pyproject.toml | cut -d' ' -f1)"
  # the base install is part of any extra's: a current "test" install serves a base request
  if [ -z "$extra" ] && [ -f .venv/.installed-test ] && [ "$(cat .venv/.installed-test)" = "$want" ]; then
    stamp=".venv/.installed-test"
  fi
  if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
    echo "==> Installing ${target} into .venv (pip install -e '${target}')"
    .venv/bin/python -m pip install -qq --editable "$target"
    echo "$want" > "$stamp"
  fi
  export PATH="$PWD/.venv/bin:$PATH"
  export VIRTUAL_ENV="$PWD/.venv"
}
