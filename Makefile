# Glossa: `make serve` and `make test` do all the set-up on a fresh Debian machine.
SHELL := /bin/bash
SWIFT ?= $(shell command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)
HOST ?= 127.0.0.1
PORT ?= 8080
# Extra Apertium pairs to install, by package or pair name: make serve PAIRS="apertium-eo-en"
PAIRS ?=
VENV := .venv
PY := $(VENV)/bin/python
TEST_OUTPUT ?= test-output

.PHONY: deps deps-test build build-release deb serve cluster test test-swift test-python bench venv clean detect-accuracy detect-testdata detector-profiles flores-data fuzz quality

deps:
	scripts/install-deps.sh serve $(PAIRS)

deps-test:
	scripts/install-deps.sh test $(PAIRS)

build:
	$(SWIFT) build

# Every release build uses these flags (make deb's script and bench/release_build.py too): the Swift
# runtime is linked in, as a package needs, and .build/release keeps one build per flag set, so a
# product built there with other flags (detect-accuracy, a benchmark's tool) relinked the plugin
# tools, re-embedded the data and rebuilt glossa (about 40 s) at the next `make serve`.
RELEASE_FLAGS = -c release --static-swift-stdlib

# glossa runs glossa-apertium-tagger (built beside it) in place of apertium-tagger.
build-release:
	$(SWIFT) build $(RELEASE_FLAGS) --product glossa
	$(SWIFT) build $(RELEASE_FLAGS) --product glossa-apertium-tagger

# The Debian package build/deb/glossa_VERSION_amd64.deb: the release binaries with the Swift
# runtime linked in, man pages from each command's --help, a systemd unit running `glossa serve`
# as its own user, settings in /etc/default/glossa (packaging/deb/build-deb.sh says what goes
# where). tests/test_deb.py installs it with apt into a clean Debian 12 and translates there.
deb:
	scripts/install-deps.sh deb
	SWIFT=$(SWIFT) packaging/deb/build-deb.sh

# Installs what is missing, builds in release mode and starts the service with the default pairs.
# MODELS="de fr": install those neural models from the Argos package index first
# (`glossa models install de fr`; GLOSSA_MODEL_INDEX names another index).
MODELS ?=
serve: deps build-release
	$(if $(strip $(MODELS)),.build/release/glossa models install $(MODELS),)
	.build/release/glossa serve --host $(HOST) --port $(PORT)

# REPLICAS replicas of `glossa serve --require-keys` behind nginx on $(PORT), sharing one PostgreSQL
# (started in .cluster/ unless DATABASE=postgres://… is given); Ctrl-C stops it. docs/cluster.md.
REPLICAS ?= 3
cluster: build-release
	scripts/install-deps.sh cluster $(PAIRS)
	REPLICAS=$(REPLICAS) PORT=$(PORT) GLOSSA_BIN=$(CURDIR)/.build/release/glossa scripts/cluster.sh run

# Python test tools live in a virtual environment that this target builds itself.
venv: deps-test
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r tests/requirements.txt \
	  || $(PY) -m pip install --disable-pip-version-check -r tests/requirements.txt

# Installs what is missing, builds, runs every test. The Swift tests take about 5 minutes on 2
# cores; past SWIFT_TEST_SECONDS a hang ends the run with the log so far instead of CI's time. A
# failure ends with a summary (failed tests, a crash's frames), since CI shows only the tail.
SWIFT_TEST_SECONDS ?= 1800
test: deps-test venv
	$(SWIFT) build --build-tests
	scripts/swift-test.sh $(SWIFT) $(TEST_OUTPUT)/swift-test.log $(SWIFT_TEST_SECONDS)
	GLOSSA_BIN=$(CURDIR)/.build/debug/glossa $(PY) -m pytest -v --durations=15 tests
	$(MAKE) fuzz FUZZ_SECONDS=$(TEST_FUZZ_SECONDS)

# libFuzzer over request decoding, framing, the deformatters, language codes and the model reader,
# FUZZ_SECONDS per target (make test runs TEST_FUZZ_SECONDS of each); see scripts/fuzz.sh.
FUZZ_SECONDS ?= 60
TEST_FUZZ_SECONDS ?= 10
fuzz:
	SWIFT=$(SWIFT) FUZZ_SECONDS=$(FUZZ_SECONDS) scripts/fuzz.sh

bench: flores-data deps-test venv build-release
	scripts/install-deps.sh bench $(PAIRS)
	$(PY) -m pip install --quiet --disable-pip-version-check -r bench/requirements.txt
	GLOSSA_BIN=$(CURDIR)/.build/release/glossa $(PY) bench/run.py

# chrF and BLEU of every installed Apertium direction through Glossa and through raw `apertium`
# on FLORES-200 dev, and the lines that differ from `apertium` run on each line alone (the first
# QUALITY_LINES lines; each is a fresh process): writes docs/quality.md. QUALITY_PAIRS=eng-spa,...
# limits it to some directions.
QUALITY_LINES ?= 100
QUALITY_PAIRS ?=
quality: venv build-release
	$(PY) tests/tools/quality/quality.py --glossa $(CURDIR)/.build/release/glossa --flores $(FLORES_DIR) \
	  --lines $(QUALITY_LINES) --out docs/quality.md $(if $(QUALITY_PAIRS),--pairs $(QUALITY_PAIRS))

# The detector model (Sources/LanguageDetection/Data/detector.model, committed) and the held-out
# test sets (FLORES; Latin: Livy, from Debian collatinus), regenerated from FLORES-200 dev, PyPI
# wordfreq, Debian spelling dictionaries, Apertium pairs, the gettext catalogues of 17 Debian
# packages (downloaded, not installed) and, for Latin, the Clementine Vulgate (PyPI vulgata-spacy,
# downloaded) (Sources/LanguageDetection/Data/SOURCES.md; the steps are in
# tests/tools/detector-model/generate.sh). It installs what it needs.
FLORES_DIR ?= $(CURDIR)/../shared/data/flores200-dev
DETECT_TESTDATA ?= $(CURDIR)/.build/detector-model/testdata

# The benchmarks and the detector's data read FLORES-200 dev (CC-BY-SA 4.0, Meta AI; one
# <code>_<Script>.dev file per language, 997 lines each): stop at once, saying where it goes,
# when it is missing.
flores-data:
	@test -f "$(FLORES_DIR)/eng_Latn.dev" || { echo "No FLORES-200 dev at $(FLORES_DIR) (eng_Latn.dev missing): put the dev split's <code>_<Script>.dev files there, as ../shared/data/flores200-dev beside the repository, or give FLORES_DIR=..." >&2; exit 1; }

detector-profiles: flores-data venv
	scripts/install-deps.sh detector-model
	$(PY) -m pip install --quiet --disable-pip-version-check -r tests/tools/detector-model/requirements.txt
	tests/tools/detector-model/generate.sh $(FLORES_DIR) $(PY)

# Writes the held-out test set alone (FLORES-200 dev lines 801-997, cut as lingua cuts its data).
detect-testdata: flores-data
	tests/tools/detector-model/generate.sh --testdata-only $(FLORES_DIR)

# Accuracy per language and length on DETECT_TESTDATA (any folder of <code>/{single-words,
# word-pairs,sentences}.txt; default: the FLORES hold-out, written first when missing), with
# lingua-style reports in test-output/detect-accuracy/.
detect-accuracy:
	@if [ ! -d "$(DETECT_TESTDATA)" ]; then \
	  if [ "$(DETECT_TESTDATA)" = "$(CURDIR)/.build/detector-model/testdata" ]; then $(MAKE) --no-print-directory detect-testdata; \
	  else echo "No test data at $(DETECT_TESTDATA): give DETECT_TESTDATA=a folder of <code>/{single-words,word-pairs,sentences}.txt" >&2; exit 1; fi; fi
	$(SWIFT) build $(RELEASE_FLAGS) --product detect-accuracy
	.build/release/detect-accuracy "$(DETECT_TESTDATA)" --reports $(TEST_OUTPUT)/detect-accuracy --systems glossa,cld2 --weights tests/tools/detector-model/traffic.tsv

clean:
	rm -rf .build $(VENV) $(TEST_OUTPUT)
