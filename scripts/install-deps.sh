#!/usr/bin/env bash
# Installs the Debian packages Glossa needs, idempotently, and says what it installs.
# Usage: scripts/install-deps.sh [build|test|bench|serve|cluster|deb|detector-model] [EXTRA_PAIR ...]
#   build: toolchain libraries; serve: build + default pairs; test: serve + deb + test tools;
#   deb: build + what `make deb` packages with (dpkg-shlibdeps);
#   bench: test + wrk (the load generator of bench/bench_keys.py), valgrind and gdb (the
#   instruction counts: gdb switches callgrind on at the measured call);
#   cluster: serve + PostgreSQL and nginx (`make cluster`);
#   detector-model: build + the spelling dictionaries `make detector-profiles` trains on.
# Extra Apertium pairs may be given by package name (apertium-eng-spa) or by pair (eng-spa),
# or through GLOSSA_PAIRS="apertium-xxx-yyy ...".
set -euo pipefail

profile=${1:-serve}
shift || true

# apertium-dev: libapertium's headers, for glossa-apertium-tagger. libcurl4-openssl-dev:
# FoundationNetworking's -lcurl in the release build's --static-swift-stdlib link (make
# build-release, make deb).
build_pkgs=(apertium apertium-dev apertium-lex-tools libcld2-dev libmicrohttpd-dev libsqlite3-dev libpq-dev libssl-dev pkg-config
            libopenblas-dev libsentencepiece-dev zlib1g-dev libcurl4-openssl-dev)
default_pairs=(apertium-eng-spa apertium-eng-cat apertium-spa-cat apertium-es-pt apertium-fr-es apertium-es-gl)
# postgresql, nginx, curl: `make cluster` (replicas behind nginx on one PostgreSQL); the key store
# and cluster tests start real servers of both on 127.0.0.1.
cluster_pkgs=(postgresql nginx curl)
# dpkg-dev: dpkg-shlibdeps. debootstrap: tests/test_deb.py installs the package in a clean root.
deb_pkgs=(dpkg-dev)
test_pkgs=(python3-venv apertium-apy chromium chromium-driver sentencepiece "${cluster_pkgs[@]}" "${deb_pkgs[@]}" debootstrap)

want=("${build_pkgs[@]}")
case "$profile" in
  build) ;;
  serve) want+=("${default_pairs[@]}") ;;
  cluster) want+=("${default_pairs[@]}" "${cluster_pkgs[@]}") ;;
  deb) want+=("${deb_pkgs[@]}") ;;
  test) want+=("${default_pairs[@]}" "${test_pkgs[@]}") ;;
  bench) want+=("${default_pairs[@]}" "${test_pkgs[@]}" wrk valgrind gdb) ;;
  detector-model)
    # Column 4 of languages.tsv names each language's dictionary package.
    want+=(python3-venv hunspell-tools aspell)
    want+=($(awk -F'\t' '!/^#/ && $4 != "-" { print $4 }' "$(dirname "$0")/../tests/tools/detector-model/languages.tsv"))
    # Column 3's translated lists (SOURCE|PACKAGE|MODE) name the Apertium pair that translates them.
    want+=($(awk -F'\t' '!/^#/ && $3 ~ /\|/ { split($3, f, "|"); print f[2] }' "$(dirname "$0")/../tests/tools/detector-model/languages.tsv")) ;;
  *) echo "install-deps: unknown profile '$profile' (build|serve|cluster|deb|test|bench|detector-model)" >&2; exit 2 ;;
esac
for p in "$@" ${GLOSSA_PAIRS:-}; do
  case "$p" in apertium-*) want+=("$p") ;; *) want+=("apertium-$p") ;; esac
done

missing=()
for p in "${want[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#want[@]} Debian packages for '$profile' are installed"
  exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
# Another apt run (a second checkout's tests, unattended upgrades) may hold dpkg's lock: wait for
# it rather than fail.
apt_opts=(-o DPkg::Lock::Timeout=900)
# An old or empty package list cannot find the packages: refresh it once per run.
$sudo apt-get "${apt_opts[@]}" update -qq
$sudo apt-get "${apt_opts[@]}" install -y -qq --no-install-recommends "${missing[@]}"
echo "install-deps: done"
