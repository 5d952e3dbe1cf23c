# Python tools from PyPI, each in a venv of its own, installed with uv (itself from PyPI, pinned in
# scripts/versions.env). uv resolves, downloads and unpacks in native code, and here compiles no
# bytecode up front: a tool's first run writes the bytecode of what it imports (most of what these
# packages hold is never imported; the test run lets Python write it even where the environment sets
# PYTHONDONTWRITEBYTECODE, test/harness/global-setup.ts). On 2 cores, installing moto's server took 7 s of CPU with uv
# against 27 s with pip on empty caches; each `python3 -m venv` took another 3 s installing pip.
# Sourced by scripts/provision.sh and scripts/provision-embedding-model.sh, which define $tools,
# $UV_VERSION (versions.env) and fail().

# The venvs use this machine's python3; uv must never download an interpreter of its own.
export UV_PYTHON_DOWNLOADS=never
# pip's own settings, where a machine has them (a mirror, a proxy's certificate), apply to uv too.
if [ -n "${PIP_INDEX_URL:-}" ] && [ -z "${UV_DEFAULT_INDEX:-}" ]; then export UV_DEFAULT_INDEX="$PIP_INDEX_URL"; fi
if [ -n "${PIP_CERT:-}" ] && [ -z "${SSL_CERT_FILE:-}" ]; then export SSL_CERT_FILE="$PIP_CERT"; fi

# ensure_uv: the pinned uv in $tools/uv-venv, installed with pip on first use (callers take turns).
ensure_uv() {
  local uv_venv="$tools/uv-venv"
  command -v python3 >/dev/null 2>&1 || fail "python3 is needed to install plat's Python tools from PyPI" \
    "install python3 and python3-venv (apt-get install python3 python3-venv)"
  mkdir -p "$tools"
  (
    flock 7
    if [ ! -x "$uv_venv/bin/uv" ] || [ "$(cat "$uv_venv/.plat-pinned" 2>/dev/null)" != "uv==$UV_VERSION" ]; then
      [ -x "$uv_venv/bin/pip" ] || python3 -m venv "$uv_venv" >&2 ||
        fail "could not create a Python venv at $uv_venv" "install python3-venv (apt-get install python3-venv)"
      "$uv_venv/bin/pip" install --quiet --disable-pip-version-check "uv==$UV_VERSION" >&2 ||
        fail "could not install uv==$UV_VERSION from PyPI" "check that PyPI is reachable"
      echo "uv==$UV_VERSION" > "$uv_venv/.plat-pinned"
    fi
  ) 7>"$tools/.uv-venv.lock"
}

# venv_install VENV ARGS...: creates VENV (on this machine's python3) if it has no interpreter yet,
# then `uv pip install ARGS` into it. Returns uv's status; the caller says what failed.
venv_install() {
  local venv_dir="$1"
  shift
  ensure_uv || return 1
  local uv="$tools/uv-venv/bin/uv"
  if [ ! -x "$venv_dir/bin/python" ]; then
    "$uv" venv --quiet --python "$(command -v python3)" "$venv_dir" >&2 || return 1
  fi
  "$uv" pip install --quiet --python "$venv_dir/bin/python" "$@" >&2
}
