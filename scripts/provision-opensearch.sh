#!/usr/bin/env bash
# Provision a local OpenSearch 2.x (no security plugin) with the job-scheduler
# and index-management (ISM) plugins, from Maven Central only.
#
# Usage: scripts/provision-opensearch.sh [--print-home]
#
#   Idempotent; prints nothing when everything is already installed. Progress
#   goes to stderr. With --print-home, the install dir is printed on stdout as
#   the last (only) line.
#
# Layout:  ${PLAT_TOOLS_DIR:-<repo>/.tools}/opensearch-<ver>/   the install
#          ${PLAT_TOOLS_DIR:-<repo>/.tools}/cache/              downloaded zips
#
# Environment (all optional):
#   OPENSEARCH_VERSION      version to install (also read from scripts/versions.env)
#   OPENSEARCH_HOME         use this existing install instead of provisioning one
#                           (it is checked for bin/opensearch and both plugins)
#   OPENSEARCH_DIST_ZIP     local file to use instead of downloading the distribution
#   OPENSEARCH_JOB_SCHEDULER_ZIP, OPENSEARCH_ISM_ZIP
#                           local plugin zips to use instead of downloading them
#   OPENSEARCH_WITH_ISM=1   require index-management (ISM) and try to fetch it. Maven Central
#                           does not carry its zip (checked 2026-11 for 2.x and 3.x), so ISM is
#                           installed only when this is set, OPENSEARCH_ISM_ZIP is given, or the
#                           zip is already in the cache dir; otherwise the node runs without ISM.
#   OPENSEARCH_MAVEN_REPO   base URL of a Maven repository to fetch from with curl
#                           (default: fetch with `mvn dependency:copy`, i.e. from
#                           Maven Central or the mirror in your Maven settings)
#
# Artifacts (Maven coordinates):
#   org.opensearch.distribution.integ-test-zip:opensearch:<ver>@zip   (no bundled JDK,
#       only the transport-netty4 module, no security plugin)
#   org.opensearch.plugin:opensearch-job-scheduler:<ver>.0@zip
#   org.opensearch.plugin:opensearch-index-management:<ver>.0@zip
set -euo pipefail

# Pinned default; scripts/versions.env (if present) may override it.
OPENSEARCH_VERSION_DEFAULT="2.19.6"

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_ROOT="$(cd "$SCRIPT_DIR/.." && pwd)"

_env_version="${OPENSEARCH_VERSION:-}"
if [[ -f "$SCRIPT_DIR/versions.env" ]]; then
  # shellcheck disable=SC1091
  source "$SCRIPT_DIR/versions.env"
fi
# An explicit environment variable wins over versions.env, which wins over the default.
OPENSEARCH_VERSION="${_env_version:-${OPENSEARCH_VERSION:-$OPENSEARCH_VERSION_DEFAULT}}"
PLUGIN_VERSION="${OPENSEARCH_VERSION}.0"

PRINT_HOME=0
for arg in "$@"; do
  case "$arg" in
    --print-home) PRINT_HOME=1 ;;
    -h | --help)
      sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'
      exit 0
      ;;
    *)
      echo "provision-opensearch: unknown argument: $arg" >&2
      exit 2
      ;;
  esac
done

TOOLS_DIR="${PLAT_TOOLS_DIR:-$REPO_ROOT/.tools}"
CACHE_DIR="$TOOLS_DIR/cache"
INSTALL_DIR="$TOOLS_DIR/opensearch-$OPENSEARCH_VERSION"
MAVEN_REPO="${OPENSEARCH_MAVEN_REPO:-}"
MAVEN_REPO="${MAVEN_REPO%/}"

REQUIRED_PLUGINS=(opensearch-job-scheduler)
WANT_ISM=0
if [[ "${OPENSEARCH_WITH_ISM:-0}" == "1" || -n "${OPENSEARCH_ISM_ZIP:-}" ||
  -f "$CACHE_DIR/opensearch-index-management-$PLUGIN_VERSION.zip" ]]; then
  WANT_ISM=1
  REQUIRED_PLUGINS+=(opensearch-index-management)
fi

log() { echo "provision-opensearch: $*" >&2; }

die() {
  {
    echo "provision-opensearch: ERROR: $*"
    echo "provision-opensearch: to supply OpenSearch yourself, either"
    echo "  - set OPENSEARCH_HOME to an existing OpenSearch $OPENSEARCH_VERSION install that has the"
    echo "    plugins: ${REQUIRED_PLUGINS[*]}; or"
    echo "  - put the missing zip(s) in $CACHE_DIR/ under the file name(s) above, or point"
    echo "    OPENSEARCH_DIST_ZIP / OPENSEARCH_JOB_SCHEDULER_ZIP / OPENSEARCH_ISM_ZIP at them; or"
    echo "  - set OPENSEARCH_MAVEN_REPO to a Maven repository that has them."
  } >&2
  exit 1
}

has_plugins() { # $1 = home
  local p
  for p in "${REQUIRED_PLUGINS[@]}"; do
    [[ -f "$1/plugins/$p/plugin-descriptor.properties" ]] || return 1
  done
}

finish() { # $1 = home
  if [[ "$PRINT_HOME" == 1 ]]; then
    echo "$1"
  fi
  exit 0
}

# --- an existing install supplied by the caller ---------------------------------
if [[ -n "${OPENSEARCH_HOME:-}" ]]; then
  [[ -x "$OPENSEARCH_HOME/bin/opensearch" ]] ||
    die "OPENSEARCH_HOME=$OPENSEARCH_HOME has no executable bin/opensearch"
  has_plugins "$OPENSEARCH_HOME" ||
    die "OPENSEARCH_HOME=$OPENSEARCH_HOME lacks one of the plugins: ${REQUIRED_PLUGINS[*]}"
  finish "$OPENSEARCH_HOME"
fi

# --- fast path: already provisioned (silent) -------------------------------------
if [[ -x "$INSTALL_DIR/bin/opensearch" ]] && has_plugins "$INSTALL_DIR"; then
  finish "$INSTALL_DIR"
fi

# --- slow path ----------------------------------------------------------------------
for tool in unzip java; do
  command -v "$tool" >/dev/null 2>&1 || die "'$tool' is not installed (apt-get install -y ${tool/java/openjdk-17-jre-headless})"
done
if [[ -z "${OPENSEARCH_JAVA_HOME:-}${JAVA_HOME:-}" ]]; then
  # The integ-test-zip distribution has no bundled JDK.
  OPENSEARCH_JAVA_HOME="$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")"
  export OPENSEARCH_JAVA_HOME
fi

mkdir -p "$CACHE_DIR"
# Serialise concurrent provisioning runs.
exec 9>"$TOOLS_DIR/.opensearch-provision.lock"
if command -v flock >/dev/null 2>&1; then
  flock 9
fi
# Another run may have finished while we waited.
if [[ -x "$INSTALL_DIR/bin/opensearch" ]] && has_plugins "$INSTALL_DIR"; then
  finish "$INSTALL_DIR"
fi

# fetch <group> <artifact> <version> <override-file-or-empty>; prints the local path.
fetch() {
  local group="$1" artifact="$2" version="$3" override="$4"
  local file="$artifact-$version.zip"
  local dest="$CACHE_DIR/$file"
  local coords="$group:$artifact:$version@zip"
  if [[ -n "$override" ]]; then
    [[ -f "$override" ]] || die "file not found: $override"
    echo "$override"
    return
  fi
  if [[ -s "$dest" ]]; then
    echo "$dest"
    return
  fi
  log "downloading $coords"
  local tmp="$dest.part.$$" ok=0 why=""
  if [[ -n "$MAVEN_REPO" ]]; then
    local url="$MAVEN_REPO/${group//.//}/$artifact/$version/$file" want got
    command -v curl >/dev/null 2>&1 || die "curl is needed to fetch from OPENSEARCH_MAVEN_REPO"
    if curl -fsL --retry 3 --connect-timeout 20 -o "$tmp" "$url"; then
      if want="$(curl -fsL --retry 3 --connect-timeout 20 "$url.sha1")"; then
        want="${want%% *}"
        got="$(sha1sum "$tmp" | cut -d' ' -f1)"
        if [[ "$want" == "$got" ]]; then ok=1; else why="sha1 mismatch"; fi
      else
        ok=1 # no checksum published; unzip -t below still checks integrity
      fi
    else
      why="not found at $url"
    fi
  else
    command -v mvn >/dev/null 2>&1 ||
      die "mvn is needed to fetch $coords (apt-get install -y maven), or set OPENSEARCH_MAVEN_REPO"
    # No --strict-checksums: the job-scheduler zips are published without checksum files.
    local out mvn_dir="$CACHE_DIR/.mvn.$$"
    if out="$(mvn -B -q -U dependency:copy \
      -Dartifact="$group:$artifact:$version:zip" -DoutputDirectory="$mvn_dir" 2>&1)" &&
      mv "$mvn_dir/$file" "$tmp"; then
      ok=1
    else
      why="mvn: $(echo "$out" | grep -m1 'ERROR' | sed 's/.*standalone-pom: //; s/.*\[ERROR\] //' | cut -c1-240)"
    fi
    rm -rf "$mvn_dir"
  fi
  if [[ "$ok" == 1 ]] && unzip -tq "$tmp" >/dev/null 2>&1; then
    mv -f "$tmp" "$dest"
    echo "$dest"
    return
  fi
  rm -f "$tmp"
  if [[ "$artifact" == opensearch-index-management ]]; then
    log "note: the index-management plugin zip is not on Maven Central (checked for 2.x and 3.x);"
    log "  it ships in OpenSearch's full distribution (opensearch-$OPENSEARCH_VERSION-linux-x64.tar.gz,"
    log "  plugins/opensearch-index-management). Unset OPENSEARCH_WITH_ISM to install without it."
  fi
  die "could not fetch $coords ($file)${why:+: $why}"
}

# Fetch everything first, so a missing artifact leaves no half-made install.
# (Command substitution runs in a subshell, so check its status explicitly.)
DIST_ZIP="$(fetch org.opensearch.distribution.integ-test-zip opensearch "$OPENSEARCH_VERSION" "${OPENSEARCH_DIST_ZIP:-}")" || exit 1
declare -A PLUGIN_ZIP=()
PLUGIN_ZIP[opensearch-job-scheduler]="$(fetch org.opensearch.plugin opensearch-job-scheduler "$PLUGIN_VERSION" "${OPENSEARCH_JOB_SCHEDULER_ZIP:-}")" || exit 1
if [[ "$WANT_ISM" == 1 ]]; then
  PLUGIN_ZIP[opensearch-index-management]="$(fetch org.opensearch.plugin opensearch-index-management "$PLUGIN_VERSION" "${OPENSEARCH_ISM_ZIP:-}")" || exit 1
fi

install_plugins() { # $1 = home; installs missing plugins in dependency order
  local home="$1" p
  for p in "${REQUIRED_PLUGINS[@]}"; do
    [[ -f "$home/plugins/$p/plugin-descriptor.properties" ]] && continue
    log "installing plugin $p"
    local out
    if ! out="$("$home/bin/opensearch-plugin" install --batch "file://${PLUGIN_ZIP[$p]}" 2>&1)"; then
      echo "$out" >&2
      die "opensearch-plugin install of ${PLUGIN_ZIP[$p]} failed (see above)"
    fi
  done
}

if [[ -x "$INSTALL_DIR/bin/opensearch" ]]; then
  # Distribution present but a plugin is missing (e.g. an ISM zip supplied later).
  install_plugins "$INSTALL_DIR"
  chmod -R a+rX "$INSTALL_DIR/plugins"
else
  STAGE="$TOOLS_DIR/.opensearch-$OPENSEARCH_VERSION.stage.$$"
  trap 'rm -rf "$STAGE"' EXIT
  rm -rf "$STAGE"
  mkdir -p "$STAGE"
  log "unpacking $(basename "$DIST_ZIP")"
  unzip -q "$DIST_ZIP" -d "$STAGE" || die "could not unpack $DIST_ZIP"
  [[ -x "$STAGE/opensearch-$OPENSEARCH_VERSION/bin/opensearch" ]] ||
    die "$DIST_ZIP does not contain opensearch-$OPENSEARCH_VERSION/bin/opensearch"
  install_plugins "$STAGE/opensearch-$OPENSEARCH_VERSION"
  # The zip ships config/ as owner-only; make the install readable by the
  # unprivileged user that run-opensearch.sh uses when started as root.
  chmod -R a+rX "$STAGE/opensearch-$OPENSEARCH_VERSION"
  rm -rf "$INSTALL_DIR"
  mv "$STAGE/opensearch-$OPENSEARCH_VERSION" "$INSTALL_DIR"
  rm -rf "$STAGE"
  trap - EXIT
fi

has_plugins "$INSTALL_DIR" || die "plugins missing after install in $INSTALL_DIR"
log "installed OpenSearch $OPENSEARCH_VERSION in $INSTALL_DIR"
finish "$INSTALL_DIR"
