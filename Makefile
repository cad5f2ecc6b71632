# Thin wrapper: set-up, build, run, test. The real build is meson's.
BUILD      ?= build
SAN_BUILD  ?= build-sanitize
TSAN_BUILD ?= build-tsan
MODEL      ?= data/wide_branches.onnx
PARTITION  ?= data/wide_branches.two-streams.json
MESON_TEST  = meson test --print-errorlogs --num-processes 2

export UBSAN_OPTIONS = halt_on_error=1:print_stacktrace=1
export ASAN_OPTIONS  = detect_leaks=1:abort_on_error=1
# System libraries' lifetime caches (fontconfig, GLib); never planviz's code.
export LSAN_OPTIONS  = suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0

.PHONY: all deps build run test test-plain test-sanitize test-tsan fuzz bench clean

all: build

deps:
	@.ci/install-deps.sh
	@.ci/install-ort.sh

$(BUILD)/build.ninja:
	meson setup $(BUILD)

build: deps $(BUILD)/build.ninja
	ninja -C $(BUILD)

# The window on a two-stream sample; without a display, the same plan as text.
run: build
	@if [ -x $(BUILD)/app/planviz ] && [ -n "$$DISPLAY$$WAYLAND_DISPLAY" ]; then \
	  $(BUILD)/app/planviz $(MODEL) --partition $(PARTITION); \
	else \
	  echo "No display (or no GTK build): showing the plan as text."; \
	  $(BUILD)/app/planviz-cli plan $(MODEL) --partition $(PARTITION); \
	fi

test: deps test-plain test-sanitize
	@python3 .ci/summarize.py $(BUILD) $(SAN_BUILD)

test-plain: $(BUILD)/build.ninja
	ninja -C $(BUILD)
	$(MESON_TEST) -C $(BUILD)

# clang, so that the same build also carries the libFuzzer targets.
$(SAN_BUILD)/build.ninja:
	CC=clang meson setup $(SAN_BUILD) -Db_sanitize=address,undefined -Db_lundef=false -Dfuzzing=true

test-sanitize: $(SAN_BUILD)/build.ninja
	ninja -C $(SAN_BUILD)
	$(MESON_TEST) -C $(SAN_BUILD) --timeout-multiplier 4

# Every fuzz target for FUZZ_SECONDS each, one at a time (tests/fuzz/run-fuzz.sh):
# FUZZ_WORKERS processes per target, FUZZ_KEEP=1 merges new coverage into
# tests/fuzz/corpus. New inputs stay in $(SAN_BUILD)/fuzz-scratch.
FUZZ_SECONDS ?= 60
FUZZ_WORKERS ?= 1
FUZZ_KEEP    ?= 0

fuzz: SHELL := /bin/bash
fuzz: $(SAN_BUILD)/build.ninja
	ninja -C $(SAN_BUILD)
	@set -o pipefail; PV_FUZZ_SECONDS=$(FUZZ_SECONDS) PV_FUZZ_WORKERS=$(FUZZ_WORKERS) PV_FUZZ_KEEP=$(FUZZ_KEEP) \
	  PV_FUZZ_SCRATCH=$(CURDIR)/$(SAN_BUILD)/fuzz-scratch PV_FUZZ_ARTIFACTS=$(CURDIR)/$(SAN_BUILD)/fuzz-artifacts \
	  meson test -C $(SAN_BUILD) --suite fuzz --num-processes 1 --timeout-multiplier 0 --verbose 2>&1 \
	  | tee $(SAN_BUILD)/fuzz.log | { grep --line-buffered -E '^[a-z-]+: [0-9]+ executions|merged into|ERROR|SUMMARY|^Ok:|^Fail:' || true; }
	@echo "FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_WORKERS=$(FUZZ_WORKERS); full output in $(SAN_BUILD)/fuzz.log"

# ThreadSanitizer (clang): every test of that build, unit to GUI; any report
# fails its test (tests/meson.build sets TSAN_OPTIONS, tests/tsan.supp says
# what is not checked and why). 25 to 30 minutes on 2 cores: not in `test`.
$(TSAN_BUILD)/build.ninja:
	CC=clang meson setup $(TSAN_BUILD) -Db_sanitize=thread -Db_lundef=false

test-tsan: $(TSAN_BUILD)/build.ninja
	ninja -C $(TSAN_BUILD)
	$(MESON_TEST) -C $(TSAN_BUILD) --timeout-multiplier 4
	@python3 .ci/summarize.py $(TSAN_BUILD)

bench: build
	meson test -C $(BUILD) --benchmark --verbose

clean:
	rm -rf $(BUILD) $(SAN_BUILD) $(TSAN_BUILD)
