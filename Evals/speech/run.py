"""The speech round trip (seed 004, issue 38): labelled requests spoken by synthesizers,
transcribed by pb-listen, planned by pb-plan, scored beside the text they were spoken from.

For each voice: WER of pb-listen's transcripts against the text (both through Whisper's English
normalizer, so "twelve pounds fifty" and "12.50" compare as numbers); the share of utterances
whose transcript equals faster-whisper's on the same weights and audio (float32, greedy); the
real-time factor of both (and of faster-whisper's int8 path); the same share for a beam of five
(pb-listen --beam 5 against faster-whisper's beam_size=5); and the tool and argument accuracy
of pb-plan on the text, on the transcript, on the transcript with the contacts' names recovered
(named), and with that and the agent's phrasing in the prompt (informed, pb-listen --vocabulary,
which searches a beam of five; the store is empty here, so the prompt holds the phrasing alone)
-- the ablation.

The cases are the router's labelled requests (canonical, paraphrase, dates, questions, capture,
contacts, drafts), written before any of this: the even lines are the check half reported here,
the odd lines the tune half (run.py --half tune), the only half whose misses may be read.

    run.py BUILD [--gate] [--quick] [--half check|tune] [--voice NAME] [--model DIR]
      --quick: one voice (espeak-ng en-gb), the canonical, capture, contacts and drafts splits
      --model: another Whisper folder (pocketbrains-model --speech-base), for both recognisers
      --gate:  exit 1 when a figure is past its floor in floors.json (make test runs --quick --gate)
"""
import argparse
import hashlib
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "Evals", "router"))
import score as router  # noqa: E402  (the router eval's scoring: the same check of tools and arguments)

SPLITS = ["canonical", "paraphrase", "dates", "questions", "capture", "contacts", "drafts"]
QUICK_SPLITS = ["canonical", "capture", "contacts", "drafts"]
# (name, command): espeak-ng in two accents and two speeds, festival's diphone voice.
VOICES = {
    "espeak-en-gb": ["espeak-ng", "-v", "en-gb", "-s", "160", "-w", "{wav}", "--", "{text}"],
    "espeak-en-us-f3": ["espeak-ng", "-v", "en-us+f3", "-s", "140", "-w", "{wav}", "--", "{text}"],
    "espeak-en-gb-fast": ["espeak-ng", "-v", "en-gb", "-s", "210", "-w", "{wav}", "--", "{text}"],
    "festival": ["text2wave", "-o", "{wav}", "{textfile}"],
}
QUICK_VOICES = ["espeak-en-gb"]
VENV_PACKAGES = ["faster-whisper==1.2.1", "ctranslate2==4.8.5", "whisper-normalizer==0.1.15"]


def cases(half, splits):
    out = []
    for split in splits:
        lines = [l for l in open(os.path.join(ROOT, "Evals", "router", split + ".jsonl")) if l.strip()]
        for i, line in enumerate(lines):
            if (i % 2 == 0) != (half == "check"):
                continue
            c = json.loads(line)
            out.append({"id": f"{split}-{i:03d}", "split": split, "text": c["text"], "now": c["now"], "expect": c["expect"]})
    return out


def spoken(text):
    # A capture case's lines are said one after another, as sentences.
    return " ".join(l.strip().lstrip("-").strip().rstrip(".") + "." for l in text.splitlines() if l.strip())


def synthesize(voice, case, folder):
    """The case said by the voice, as a WAV file kept by the hash of voice and text."""
    text = spoken(case["text"])
    key = hashlib.sha256((voice + "\n" + text).encode()).hexdigest()[:16]
    wav = os.path.join(folder, f"{case['id']}-{key}.wav")
    if not os.path.exists(wav):
        textfile = wav + ".txt"
        with open(textfile, "w") as f:
            f.write(text + "\n")
        command = [a.replace("{wav}", wav + ".part").replace("{text}", text).replace("{textfile}", textfile) for a in VOICES[voice]]
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.replace(wav + ".part", wav)
        os.remove(textfile)
    return wav


def samples_of(wav, folder):
    """The float32 samples pb-listen's sox command makes, for the reference to read."""
    raw = os.path.join(folder, os.path.basename(wav) + ".f32")
    if not os.path.exists(raw):
        subprocess.run(["sox", "-V1", wav, "-t", "raw", "-e", "floating-point", "-b", "32", "-L", "-r", "16000", "-c", "1", raw],
                       check=True)
    return raw


def seconds_of(raw):
    return os.path.getsize(raw) / 4 / 16000


def listen(build, wavs, model_dir, contacts=None, vocabulary=False, beam=None):
    env = dict(os.environ)
    env.pop("PB_CONTACTS", None)
    args = [os.path.join(build, "pb-listen"), "--threads", "2", "--model", model_dir]
    args += ["--contacts", contacts] if contacts else ["--no-names"]
    args += ["--vocabulary"] if vocabulary else []
    args += ["--beam", str(beam)] if beam else []
    start = time.perf_counter()
    run = subprocess.run(args + ["--"] + wavs, check=True, capture_output=True, text=True, env=env)
    spent = time.perf_counter() - start
    records = [json.loads(l) for l in run.stdout.splitlines() if l.strip()]
    assert len(records) == len(wavs), f"pb-listen wrote {len(records)} records for {len(wavs)} files"
    return records, spent


def plan(build, items):
    """pb-plan on {"text", "now"} items, without the store (the grammar, as the router eval)."""
    lines = "".join(json.dumps({"text": t, "now": n}) + "\n" for t, n in items)
    run = subprocess.run([os.path.join(build, "pb-plan"), "--no-store"], input=lines, check=True, capture_output=True, text=True)
    return [json.loads(l) for l in run.stdout.splitlines() if l.strip()]


def accuracy(cs, plans):
    tools = args = 0
    for c, p in zip(cs, plans):
        t, a = router.check(c["expect"], p)
        tools += t
        args += a
    return round(tools / len(cs), 4), round(args / len(cs), 4)


def word_errors(reference, hypothesis):
    r, h = reference.split(), hypothesis.split()
    d = list(range(len(h) + 1))
    for i in range(1, len(r) + 1):
        prev, d[0] = d[0], i
        for j in range(1, len(h) + 1):
            cur = min(d[j] + 1, d[j - 1] + 1, prev + (r[i - 1] != h[j - 1]))
            prev, d[j] = d[j], cur
    return d[len(h)], len(r)


def venv_python(out):
    venv = os.path.join(out, "venv")
    python = os.path.join(venv, "bin", "python")
    probe = subprocess.run([python, "-c", "import faster_whisper, whisper_normalizer"], capture_output=True) if os.path.exists(python) else None
    if probe is None or probe.returncode != 0:
        subprocess.run([sys.executable, "-m", "venv", venv], check=True)
        subprocess.run([python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check"] + VENV_PACKAGES, check=True)
    return python


def normalized(python, texts):
    code = ("import json,sys\nfrom whisper_normalizer.english import EnglishTextNormalizer\nn=EnglishTextNormalizer()\n"
            "print(json.dumps([n(t) for t in json.load(sys.stdin)]))")
    run = subprocess.run([python, "-c", code], input=json.dumps(texts), check=True, capture_output=True, text=True)
    return json.loads(run.stdout)


def machine(build):
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), platform.processor())
    check = subprocess.run([os.path.join(build, "pb-listen"), "--check"], capture_output=True, text=True)
    kernel = check.stderr.rsplit("kernels ", 1)[-1].strip() if check.returncode == 0 else "unknown"
    return cpu, kernel


def main():
    p = argparse.ArgumentParser()
    p.add_argument("build")
    p.add_argument("--gate", action="store_true")
    p.add_argument("--quick", action="store_true")
    p.add_argument("--half", choices=["check", "tune"], default="check")
    p.add_argument("--voice", choices=list(VOICES), help="one voice only")
    p.add_argument("--model", help="a Whisper model folder other than pb-listen's default")
    o = p.parse_args()
    if o.gate and not o.quick:
        p.error("--gate goes with --quick: the floors are the quick run's")
    if o.gate and o.model:
        p.error("--gate holds the default model's floors")
    build = os.path.abspath(o.build)
    out = os.path.join(ROOT, "Evals", "out", "speech")
    os.makedirs(out, exist_ok=True)
    model_dir = os.path.abspath(o.model) if o.model else \
        subprocess.run([os.path.join(build, "pocketbrains"), "--speech-model-dir"], capture_output=True, text=True).stdout.strip()
    if not os.path.exists(os.path.join(model_dir, "model.bin")):
        sys.exit(f"speech eval: no Whisper model at {model_dir} (make model-speech)")
    for tool in ("espeak-ng", "sox") + (() if o.quick else ("text2wave",)):
        if not shutil.which(tool):
            sys.exit(f"speech eval: {tool} is not installed (make deps)")
    python = venv_python(out)
    cpu, kernel = machine(build)
    cs = cases(o.half, QUICK_SPLITS if o.quick else SPLITS)
    contacts = os.path.join(ROOT, "Tests", "Fixtures", "contacts")
    text_tools, text_args = accuracy(cs, plan(build, [(c["text"], c["now"]) for c in cs]))
    floors = json.load(open(os.path.join(HERE, "floors.json")))
    failed = []
    for voice in ([o.voice] if o.voice else QUICK_VOICES if o.quick else VOICES):
        folder = os.path.join(out, "audio", voice)
        os.makedirs(folder, exist_ok=True)
        wavs = [synthesize(voice, c, folder) for c in cs]
        raws = [samples_of(w, folder) for w in wavs]
        audio_seconds = sum(seconds_of(r) for r in raws)
        heard, listen_seconds = listen(build, wavs, model_dir)
        beamed, beam_seconds = listen(build, wavs, model_dir, beam=5)
        named, _ = listen(build, wavs, model_dir, contacts)
        informed, informed_seconds = listen(build, wavs, model_dir, contacts, vocabulary=True)
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            json.dump([{"id": c["id"], "samples": r} for c, r in zip(cs, raws)], f)
            listing = f.name
        reference = subprocess.run([python, os.path.join(HERE, "reference.py"), model_dir, listing, "2", "float32,int8,float32:5"],
                                   check=True, capture_output=True, text=True)
        os.remove(listing)
        ref_text, ref_seconds = {}, {}
        for line in reference.stdout.splitlines():
            r = json.loads(line)
            run = r["compute_type"] + ("" if r["beam"] == 1 else f":{r['beam']}")
            if "id" in r:
                ref_text[(run, r["id"])] = r["text"]
            else:
                ref_seconds[run] = r["seconds"]
        ours = [h["text"] for h in heard]
        theirs = [ref_text[("float32", c["id"])] for c in cs]
        norm = normalized(python, [spoken(c["text"]) for c in cs] + ours + theirs)
        truth, ours_n, theirs_n = norm[:len(cs)], norm[len(cs):2 * len(cs)], norm[2 * len(cs):]
        errors = sum(word_errors(t, h)[0] for t, h in zip(truth, ours_n))
        words = sum(word_errors(t, h)[1] for t, h in zip(truth, ours_n))
        ref_errors = sum(word_errors(t, h)[0] for t, h in zip(truth, theirs_n))
        equal = sum(a == b for a, b in zip(ours, theirs))
        theirs_beam = [ref_text[("float32:5", c["id"])] for c in cs]
        equal_beam = sum(h["text"] == t for h, t in zip(beamed, theirs_beam))
        beam_n = normalized(python, [h["text"] for h in beamed])
        beam_errors = sum(word_errors(t, h)[0] for t, h in zip(truth, beam_n))
        heard_tools, heard_args = accuracy(cs, plan(build, [(h["text"], c["now"]) for h, c in zip(heard, cs)]))
        named_tools, named_args = accuracy(cs, plan(build, [(h["text"], c["now"]) for h, c in zip(named, cs)]))
        informed_tools, informed_args = accuracy(cs, plan(build, [(h["text"], c["now"]) for h, c in zip(informed, cs)]))
        informed_n = normalized(python, [h["text"] for h in informed])
        informed_errors = sum(word_errors(t, h)[0] for t, h in zip(truth, informed_n))
        # Each utterance's transcripts are kept for the tuning half only: the check half's are never listed.
        if o.half == "tune":
            with open(os.path.join(out, f"{voice}.tune.jsonl"), "w") as f:
                for c, h, b, n, i, t in zip(cs, heard, beamed, named, informed, theirs):
                    f.write(json.dumps({"id": c["id"], "text": c["text"], "heard": h["text"], "beam": b["text"], "named": n["text"],
                                        "informed": i["text"], "faster_whisper": t}) + "\n")
        line = {"eval": "speech", "voice": voice, "half": o.half, "utterances": len(cs), "audio_seconds": round(audio_seconds, 1),
                "wer": round(errors / words, 4), "wer_faster_whisper": round(ref_errors / words, 4),
                "wer_informed": round(informed_errors / words, 4),
                "equal_to_faster_whisper": round(equal / len(cs), 4),
                "wer_beam": round(beam_errors / words, 4), "equal_beam_to_faster_whisper": round(equal_beam / len(cs), 4),
                "tool_accuracy_text": text_tools, "tool_accuracy_transcript": heard_tools, "tool_accuracy_named": named_tools,
                "tool_accuracy_informed": informed_tools,
                "arg_accuracy_text": text_args, "arg_accuracy_transcript": heard_args, "arg_accuracy_named": named_args,
                "arg_accuracy_informed": informed_args,
                "realtime_pb_listen": round(audio_seconds / listen_seconds, 1),
                "realtime_faster_whisper_float32": round(audio_seconds / ref_seconds["float32"], 1),
                "realtime_faster_whisper_int8": round(audio_seconds / ref_seconds["int8"], 1),
                "speed_vs_faster_whisper_float32": round(ref_seconds["float32"] / listen_seconds, 2),
                "realtime_pb_listen_beam": round(audio_seconds / beam_seconds, 1),
                "realtime_pb_listen_informed": round(audio_seconds / informed_seconds, 1),
                "realtime_faster_whisper_float32_beam": round(audio_seconds / ref_seconds["float32:5"], 1),
                "model": heard[0]["model"], "kernel": kernel, "cpu": cpu, "threads": 2, "quick": o.quick}
        print("EVALJSON " + json.dumps(line), flush=True)
        floor = floors.get(voice, {}) if o.quick else {}
        for key, bound in floor.items() if isinstance(floor, dict) else []:
            value = line[key]
            bad = value > bound if key.startswith("wer") else value < bound
            if bad:
                failed.append(f"{voice} {key} {value} (floor {bound})")
    if o.gate and failed:
        print("speech gate: " + "; ".join(failed), file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
