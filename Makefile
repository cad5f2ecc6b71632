# Thin wrapper: set-up, build, run, test. The real build is meson's.
BUILD      ?= build
SAN_BUILD  ?= build-sanitize
MODEL      ?= data/wide_branches.onnx
PARTITION  ?= data/wide_branches.two-streams.json
MESON_TEST  = meson test --print-errorlogs --num-processes 2

export UBSAN_OPTIONS = halt_on_error=1:print_stacktrace=1
export ASAN_OPTIONS  = detect_leaks=1:abort_on_error=1
# System libraries' lifetime caches (fontconfig, GLib); never planviz's code.
export LSAN_OPTIONS  = suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0

.PHONY: all deps build run test test-plain test-sanitize bench clean

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

bench: build
	meson test -C $(BUILD) --benchmark --verbose

clean:
	rm -rf $(BUILD) $(SAN_BUILD)
