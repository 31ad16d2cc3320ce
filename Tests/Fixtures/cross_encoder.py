#!/usr/bin/env python3
"""Makes a small BERT cross-encoder for testing `pb-rerank --model`, and its reference scores.

No cross-encoder can be fetched on our machines, so the test builds one: the all-MiniLM-L6-v2
encoder (whose tensors we have) saved as BertForSequenceClassification, with the `bert.` prefix,
its own pooler and a classifier head of fixed pseudo-random weights (one label, or two). The
scores are then computed here by an independent forward pass in numpy (float64), from the
reference tokenizer's ids in Evals/data/fixtures/minilm-golden.jsonl, so that pb-rerank's Swift
path (its tokenizer, pair layout, token types, pooler and head) is checked against arithmetic
it does not share.

usage: cross_encoder.py MODEL_DIR GOLDEN_JSONL OUT_DIR LABELS
writes OUT_DIR/{model.safetensors,config.json,vocab.txt} and OUT_DIR/reference.jsonl
"""
import json
import math
import os
import shutil
import struct
import sys

import numpy as np


def read_safetensors(path):
    with open(path, "rb") as f:
        n = struct.unpack("<Q", f.read(8))[0]
        header = json.loads(f.read(n))
        data = f.read()
    tensors = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        begin, end = info["data_offsets"]
        dtype = {"F32": np.float32, "I64": np.int64}[info["dtype"]]
        tensors[name] = np.frombuffer(data[begin:end], dtype=dtype).reshape(info["shape"])
    return tensors


def write_safetensors(path, tensors):
    header, chunks, offset = {}, [], 0
    for name in sorted(tensors):
        t = np.ascontiguousarray(tensors[name])
        raw = t.tobytes()
        header[name] = {"dtype": {np.dtype(np.float32): "F32", np.dtype(np.int64): "I64"}[t.dtype],
                        "shape": list(t.shape), "data_offsets": [offset, offset + len(raw)]}
        chunks.append(raw)
        offset += len(raw)
    blob = json.dumps(header, separators=(",", ":")).encode()
    blob += b" " * ((8 - len(blob) % 8) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(blob)))
        f.write(blob)
        for raw in chunks:
            f.write(raw)


def layer_norm(x, g, b, eps):
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * g + b


def gelu(x):
    erf = np.vectorize(math.erf)
    return 0.5 * x * (1 + erf(x / math.sqrt(2)))


def forward(t, config, ids, types):
    """BertForSequenceClassification logits for one sequence, in float64."""
    w = {k: v.astype(np.float64) for k, v in t.items() if v.dtype == np.float32}
    h, heads, eps = config["hidden_size"], config["num_attention_heads"], config["layer_norm_eps"]
    d = h // heads
    n = len(ids)
    x = w["bert.embeddings.word_embeddings.weight"][ids] + w["bert.embeddings.position_embeddings.weight"][:n] \
        + w["bert.embeddings.token_type_embeddings.weight"][types]
    x = layer_norm(x, w["bert.embeddings.LayerNorm.weight"], w["bert.embeddings.LayerNorm.bias"], eps)
    for layer in range(config["num_hidden_layers"]):
        p = f"bert.encoder.layer.{layer}."
        lin = lambda v, name: v @ w[p + name + ".weight"].T + w[p + name + ".bias"]
        q, k, v = lin(x, "attention.self.query"), lin(x, "attention.self.key"), lin(x, "attention.self.value")
        ctx = np.zeros_like(x)
        for head in range(heads):
            s = slice(head * d, (head + 1) * d)
            scores = q[:, s] @ k[:, s].T / math.sqrt(d)
            scores = np.exp(scores - scores.max(-1, keepdims=True))
            scores /= scores.sum(-1, keepdims=True)
            ctx[:, s] = scores @ v[:, s]
        x = layer_norm(x + lin(ctx, "attention.output.dense"), w[p + "attention.output.LayerNorm.weight"],
                       w[p + "attention.output.LayerNorm.bias"], eps)
        inner = gelu(lin(x, "intermediate.dense"))
        x = layer_norm(x + lin(inner, "output.dense"), w[p + "output.LayerNorm.weight"], w[p + "output.LayerNorm.bias"], eps)
    pooled = np.tanh(w["bert.pooler.dense.weight"] @ x[0] + w["bert.pooler.dense.bias"])
    return w["classifier.weight"] @ pooled + w["classifier.bias"]


def main():
    model_dir, golden, out, labels = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    os.makedirs(out, exist_ok=True)
    source = read_safetensors(os.path.join(model_dir, "model.safetensors"))
    tensors = {"bert." + k: v for k, v in source.items()}
    rng = np.random.default_rng(20261130 + labels)
    h = source["embeddings.word_embeddings.weight"].shape[1]
    tensors["classifier.weight"] = (rng.standard_normal((labels, h)) * 1.0).astype(np.float32)
    tensors["classifier.bias"] = (rng.standard_normal(labels) * 0.1).astype(np.float32)
    write_safetensors(os.path.join(out, "model.safetensors"), tensors)
    with open(os.path.join(model_dir, "config.json")) as f:
        config = json.load(f)
    config["architectures"] = ["BertForSequenceClassification"]
    config["num_labels"] = labels
    config.setdefault("layer_norm_eps", 1e-12)
    with open(os.path.join(out, "config.json"), "w") as f:
        json.dump(config, f, indent=1)
    shutil.copy(os.path.join(model_dir, "vocab.txt"), os.path.join(out, "vocab.txt"))

    rows = [json.loads(line) for line in open(golden, encoding="utf-8")]
    by_text = {r["text"]: r["token_ids"] for r in rows}
    query = "What oil does my car take?"
    passages = [r["text"] for r in rows if r["text"].strip() and r["text"] != query and len(r["token_ids"]) < 200][:8]
    with open(os.path.join(out, "reference.jsonl"), "w") as f:
        for p in passages:
            a, b = by_text[query][1:-1], by_text[p][1:-1]
            ids = [101] + a + [102] + b + [102]
            types = [0] * (len(a) + 2) + [1] * (len(b) + 1)
            logits = forward(tensors, config, np.array(ids), np.array(types))
            score = float(logits[0]) if labels == 1 else float(logits[1] - logits[0])
            f.write(json.dumps({"query": query, "passage": p, "score": score}, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
