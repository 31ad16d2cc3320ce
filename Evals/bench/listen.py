"""make bench-speech (and make bench): pb-listen's real-time factor beside faster-whisper's, on the same audio and weights.

Twenty requests of the router's canonical split spoken by espeak-ng (en-gb), and one passage
made of them all (48 s), transcribed by pb-listen (a whole process, the model's load
included, 2 threads) on each kernel path this CPU has, and by faster-whisper (float32 and int8,
greedy, cpu_threads=2, the model loaded before the clock starts) in the speech eval's venv.
One JSON line per pb-listen path, with the CPU and the path; the real-time factor is seconds of
audio per second of work, and the ratio pb-listen's time against faster-whisper's float32 path.
A last line times a beam of five on the utterances (--beam 5 against beam_size=5, float32) on the
best path.

    listen.py BUILD OUT
"""
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "Evals", "speech"))
import run as speech  # noqa: E402  (the speech eval's synthesis, decoding and venv)


def main():
    build, out = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    os.makedirs(out, exist_ok=True)
    model_dir = subprocess.run([os.path.join(build, "pocketbrains"), "--speech-model-dir"], capture_output=True, text=True).stdout.strip()
    if not os.path.exists(os.path.join(model_dir, "model.bin")):
        print(json.dumps({"bench": "pb-listen", "skipped": f"no Whisper model at {model_dir} (make model-speech)"}))
        return
    python = speech.venv_python(os.path.join(ROOT, "Evals", "out", "speech"))
    cases = speech.cases("check", ["canonical"])[:20]
    wavs = [speech.synthesize("espeak-en-gb", c, out) for c in cases]
    passage = os.path.join(out, "passage.wav")
    subprocess.run(["sox"] + wavs + [passage], check=True)
    sets = {"utterances": wavs, "passage": [passage]}
    cpu, best = speech.machine(build)
    paths = [p for p in ("avx512", "avx2", "portable") if subprocess.run(
        [os.path.join(build, "pb-listen"), "--check"], env=dict(os.environ, PB_KERNEL=p), capture_output=True).returncode == 0]
    for name, files in sets.items():
        raws = [speech.samples_of(w, out) for w in files]
        seconds = sum(speech.seconds_of(r) for r in raws)
        listing = os.path.join(out, name + ".json")
        with open(listing, "w") as f:
            json.dump([{"id": str(i), "samples": r} for i, r in enumerate(raws)], f)
        run = subprocess.run([python, os.path.join(ROOT, "Evals", "speech", "reference.py"), model_dir, listing, "2", "float32,int8" + (",float32:5" if name == "utterances" else "")],
                             check=True, capture_output=True, text=True)
        theirs = {(r["compute_type"], r["beam"]): r["seconds"] for r in (json.loads(l) for l in run.stdout.splitlines() if '"seconds"' in l)}
        runs = [(path, 1) for path in paths if not (path == "portable" and name == "passage")]
        runs += [(best, 5)] if name == "utterances" else []
        for path, beam in runs:
            start = time.perf_counter()
            subprocess.run([os.path.join(build, "pb-listen"), "--no-names", "--threads", "2", "--beam", str(beam), "--"] + files,
                           check=True, capture_output=True, env=dict(os.environ, PB_KERNEL=path))
            ours = time.perf_counter() - start
            line = {"bench": "pb-listen", "audio": name, "files": len(files), "audio_seconds": round(seconds, 1),
                    "kernel": path, "best": path == best, "cpu": cpu, "threads": 2, "model": "whisper-tiny.en", "beam": beam,
                    "seconds": round(ours, 3), "realtime": round(seconds / ours, 1),
                    "realtime_faster_whisper_float32": round(seconds / theirs[("float32", beam)], 1),
                    "ratio_to_faster_whisper_float32": round(theirs[("float32", beam)] / ours, 2)}
            if beam == 1:
                line.update({"realtime_faster_whisper_int8": round(seconds / theirs[("int8", 1)], 1),
                             "ratio_to_faster_whisper_int8": round(theirs[("int8", 1)] / ours, 2)})
            print(json.dumps(line), flush=True)


if __name__ == "__main__":
    main()
