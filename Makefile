# Fresh-machine entry points: `make demo` and `make test` install what is missing first.
APT_PACKAGES := libfftw3-dev libsndfile1-dev libsqlite3-dev pkg-config
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
SONDE := .build/release/sonde

.PHONY: deps build demo test bench clean

deps:
	@missing=""; for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		$(SUDO) apt-get update -qq && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi

build: deps
	swift build -c release

demo: build
	$(SONDE) process sample-data/pump-vibration.csv --filter highpass:10 --bands 0-500,500-2000 \
		--features rms,peak,kurtosis,dominant_frequency,spectral_centroid,thd -o demo-pump.csv
	@echo "wrote demo-pump.csv ($$(($$(wc -l < demo-pump.csv) - 1)) records); first lines:"; head -n 4 demo-pump.csv
	$(SONDE) process sample-data/bearing.f32le --rate 25600 --channels 2 \
		--sample-type f32le --features rms,dominant_frequency,thd --format ndjson | head -n 3

test: deps
	swift build --build-tests -Xswiftc -warnings-as-errors -Xcc -O2
	swift test --skip-build
	# The ring buffer's stress tests again under ThreadSanitizer (separate build folder).
	SONDE_RING_STRESS_SAMPLES=10000000 swift test --sanitize=thread --scratch-path .build-tsan --filter RingBufferTests

clean:
	rm -rf .build .build-tsan demo-pump.csv
