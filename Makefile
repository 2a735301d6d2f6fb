# Top-level entry points (README.md). Everything goes through CMake + Ninja + ccache.
#   make run    build and start the hotel service (http://127.0.0.1:8080; HOST/PORT override)
#   make shell  build and start the cql shell on the embedded engine
#   make test   build and run every test suite (also builds the fuzz targets with clang in
#               build/fuzz and replays their corpora: the fuzz.* CTests)
#   make bench  build (optimized) and run the benchmarks
#   make bench-load  start an optimized cqld and drive it with the cqld_load generator
#   make fuzz   build the libFuzzer targets with clang and run each for FUZZ_SECONDS
#               (FUZZ_TARGETS="parser hotel" runs only those)
#   make format clang-format every C++ source in place
#   make lint   clang-tidy on the C++ sources changed since LINT_BASE (default HEAD~1)

SHELL := /bin/bash
JOBS ?= $(shell nproc)
FUZZ_SECONDS ?= 60

CMAKE_COMMON := -G Ninja -DCMAKE_CXX_COMPILER_LAUNCHER=ccache
DEBUG_DIR := build/debug
RELEASE_DIR := build/release
FUZZ_DIR := build/fuzz

.PHONY: all deps build build-release run shell test bench bench-load fuzz format lint clean

all: build

deps:
	@scripts/install-deps

$(DEBUG_DIR)/build.ninja:
	cmake -S . -B $(DEBUG_DIR) $(CMAKE_COMMON) -DCMAKE_BUILD_TYPE=Debug -DCQLD_SANITIZE=ON

$(RELEASE_DIR)/build.ninja:
	cmake -S . -B $(RELEASE_DIR) $(CMAKE_COMMON) -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DCQLD_TESTS=OFF -DCQLD_BENCH=ON

build: deps $(DEBUG_DIR)/build.ninja
	ninja -C $(DEBUG_DIR) -j $(JOBS)

build-release: deps $(RELEASE_DIR)/build.ninja
	ninja -C $(RELEASE_DIR) -j $(JOBS)

run: build-release
	@scripts/run

shell: build-release
	@scripts/shell

test: build
	ctest --test-dir $(DEBUG_DIR) --output-on-failure -j $(JOBS)

bench: build-release
	$(RELEASE_DIR)/bench/cqld_bench --benchmark_min_time=0.2

LOAD_ARGS ?= --connections 4 --in-flight 32 --duration 10 --half-peak
bench-load: build-release
	$(RELEASE_DIR)/bench/cqld_load --start-cqld $(RELEASE_DIR)/apps/cqld $(LOAD_ARGS)

fuzz: deps
	JOBS=$(JOBS) scripts/build-fuzzers $(FUZZ_DIR)
	scripts/run-fuzzers $(FUZZ_DIR) $(FUZZ_SECONDS) $(FUZZ_TARGETS)

format:
	git ls-files '*.h' '*.cc' | xargs clang-format -i

lint: build
	scripts/lint $(LINT_BASE)

clean:
	rm -rf build
