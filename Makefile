# Top-level entry points (README.md). Everything goes through CMake + Ninja + ccache.
#   make run    build and start the hotel service (http://127.0.0.1:8080; HOST/PORT override)
#   make shell  build and start the cql shell on the embedded engine
#   make test   build and run every test suite (also builds the fuzz targets with clang in
#               build/fuzz and replays their corpora: the fuzz.* CTests), but package.deb
#   make package  build an optimized tree in build/package (prefix /usr, no tests) and make
#               build/package/cqld_<version>_amd64.deb with CPack (packaging/; docs/operations.md)
#   make package-test  the CTest package.deb (label `package`): packages the debug tree and
#               checks the .deb; apart from `make test` because it takes minutes (CPack strips
#               and compresses 1 GB of sanitizer binaries)
#   make package-install-test  `make package`, then installs the .deb with apt on a fresh Debian 12
#               booted with systemd in a systemd-nspawn container and checks that both services
#               start and answer, then purges it (root; packaging/systemd_install_test.sh)
#   make bench  build (optimized) and run the benchmarks
#   make bench-load  start an optimized cqld and drive it with the cqld_load generator;
#               BENCH_LOAD=hotel instead times `hotel load` at the seeds' scale
#               (scripts/bench-hotel-load: HOTELS=500 by default, a tenth; HOTELS=5000 the
#               whole 365M rows; BENCH_LOAD_BASELINE=path/to/other/hotel for a same-session ratio)
#   make bench-peer  the relational peer: private PostgreSQL 15 and cqld, the hotel workflow and
#               the point operations side by side (scripts/bench-peer; BENCH_PEER_ARGS=--quick
#               for a smoke run)
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
PACKAGE_DIR := build/package

.PHONY: all deps build build-release run shell test bench bench-load bench-peer fuzz format lint clean package package-test package-install-test

all: build

deps:
	@scripts/install-deps

$(DEBUG_DIR)/build.ninja:
	cmake -S . -B $(DEBUG_DIR) $(CMAKE_COMMON) -DCMAKE_BUILD_TYPE=Debug -DCQLD_SANITIZE=ON

$(RELEASE_DIR)/build.ninja:
	cmake -S . -B $(RELEASE_DIR) $(CMAKE_COMMON) -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DCQLD_TESTS=OFF -DCQLD_BENCH=ON

$(PACKAGE_DIR)/build.ninja:
	cmake -S . -B $(PACKAGE_DIR) $(CMAKE_COMMON) -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DCQLD_TESTS=OFF -DCMAKE_INSTALL_PREFIX=/usr

build: deps $(DEBUG_DIR)/build.ninja
	ninja -C $(DEBUG_DIR) -j $(JOBS)

build-release: deps $(RELEASE_DIR)/build.ninja
	ninja -C $(RELEASE_DIR) -j $(JOBS)

run: build-release
	@scripts/run

shell: build-release
	@scripts/shell

test: build
	ctest --test-dir $(DEBUG_DIR) --output-on-failure -j $(JOBS) -LE package

package-test: build
	ctest --test-dir $(DEBUG_DIR) --output-on-failure -L package

package: deps $(PACKAGE_DIR)/build.ninja
	ninja -C $(PACKAGE_DIR) -j $(JOBS)
	cd $(PACKAGE_DIR) && cpack -G DEB
	@ls $(PACKAGE_DIR)/cqld_*_amd64.deb

package-install-test: package
	packaging/systemd_install_test.sh $$(ls $(PACKAGE_DIR)/cqld_*_amd64.deb | head -n 1)

bench: build-release
	$(RELEASE_DIR)/bench/cqld_bench --benchmark_min_time=0.2

LOAD_ARGS ?= --connections 4 --in-flight 32 --duration 10 --half-peak
BENCH_LOAD ?= cqld
BENCH_LOAD_BASELINE ?=
bench-load: build-release
ifeq ($(BENCH_LOAD),hotel)
	scripts/bench-hotel-load $(RELEASE_DIR) $(BENCH_LOAD_BASELINE)
else
	$(RELEASE_DIR)/bench/cqld_load --start-cqld $(RELEASE_DIR)/apps/cqld $(LOAD_ARGS)
endif

BENCH_PEER_ARGS ?=
bench-peer: build-release
	scripts/bench-peer $(BENCH_PEER_ARGS) $(RELEASE_DIR)

fuzz: deps
	JOBS=$(JOBS) scripts/build-fuzzers $(FUZZ_DIR)
	scripts/run-fuzzers $(FUZZ_DIR) $(FUZZ_SECONDS) $(FUZZ_TARGETS)

format:
	git ls-files '*.h' '*.cc' | xargs clang-format -i

lint: build
	scripts/lint $(LINT_BASE)

clean:
	rm -rf build
