"""The reference embedder for make bench: sentence-transformers on torch CPU, 2 threads, on the
same texts pb-embed gets. Prints one JSON line: seconds of encode() alone (model loaded, one
warm-up call first, which flatters the reference), documents, tokens after the 256-token cut."""
import json
import os
import sys
import time

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

import torch  # noqa: E402
from sentence_transformers import SentenceTransformer  # noqa: E402


def main():
    model_dir, texts_path, threads, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    torch.set_num_threads(threads)
    texts = [json.loads(line)["text"] for line in open(texts_path, encoding="utf-8")]
    model = SentenceTransformer(model_dir, device="cpu")
    model.max_seq_length = 256
    tokens = sum(len(ids) for ids in model.tokenizer(texts, truncation=True, max_length=256)["input_ids"])
    model.encode(texts[:16])
    best = None
    for _ in range(rounds):
        start = time.perf_counter()
        model.encode(texts, batch_size=32)
        elapsed = time.perf_counter() - start
        best = elapsed if best is None else min(best, elapsed)
    print(json.dumps({"bench": "embed-reference", "engine": "sentence-transformers", "torch": torch.__version__,
                      "threads": threads, "documents": len(texts), "tokens": tokens, "seconds": round(best, 3),
                      "tokens_per_s": round(tokens / best), "docs_per_s": round(len(texts) / best, 2)}))


if __name__ == "__main__":
    main()
