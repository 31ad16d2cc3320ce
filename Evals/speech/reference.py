"""faster-whisper on the same audio and weights as pb-listen: the reference of the speech eval.

Runs in the eval's own venv (run.py makes it). Reads a JSON list of {"id", "samples"} (paths of
raw float32 little-endian 16 kHz mono files, decoded by the same sox command pb-listen runs),
and for each run ("float32", or "float32:5" for a beam of five) writes one JSON line per utterance:
{"id", "compute_type", "beam", "text"}, then one line {"compute_type", "beam", "seconds"} with the
time spent transcribing (model loaded first, outside the time). Temperature 0 only, greedy or
beam search, as pb-listen decodes; the rest of
transcribe()'s defaults (condition on previous text, the no-speech and log-probability
thresholds, max initial timestamp 1 s) are pb-listen's too.
"""
import json
import sys
import time

import numpy as np
from faster_whisper import WhisperModel


def main():
    model_dir, listing, threads = sys.argv[1], sys.argv[2], int(sys.argv[3])
    runs = [(r.split(":")[0], int(r.split(":")[1]) if ":" in r else 1) for r in sys.argv[4].split(",")]
    items = json.load(open(listing))
    audio = [(i["id"], np.fromfile(i["samples"], dtype="<f4")) for i in items]
    models = {}
    for compute_type, beam in runs:
        if compute_type not in models:
            models[compute_type] = WhisperModel(model_dir, device="cpu", compute_type=compute_type, cpu_threads=threads)
        model = models[compute_type]
        spent = 0.0
        for ident, samples in audio:
            start = time.perf_counter()
            segments, _ = model.transcribe(samples, beam_size=beam, temperature=0.0, language="en")
            text = "".join(s.text for s in segments).strip()
            spent += time.perf_counter() - start
            print(json.dumps({"id": ident, "compute_type": compute_type, "beam": beam, "text": text}), flush=True)
        print(json.dumps({"compute_type": compute_type, "beam": beam, "seconds": spent}), flush=True)


if __name__ == "__main__":
    main()
