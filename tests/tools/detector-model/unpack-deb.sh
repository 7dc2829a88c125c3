#!/usr/bin/env bash
# Downloads a Debian package and unpacks it under DIR, without installing it: DIR/PACKAGE then
# holds the package's files (kept: a second call does nothing). Used by generate.sh (Latin's test
# text, the UI catalogues) and gettext-testset.sh (catalogues whose packages would pull in much more).
# Usage: tests/tools/detector-model/unpack-deb.sh DIR PACKAGE
set -euo pipefail
debs=${1:?usage: unpack-deb.sh DIR PACKAGE}
package=${2:?usage: unpack-deb.sh DIR PACKAGE}
[ -d "$debs/$package" ] && exit 0
# As root, apt would fetch as _apt, which cannot write into DIR, and warn about it.
download_opts=()
if [ "$(id -u)" -eq 0 ]; then download_opts=(-o APT::Sandbox::User=root); fi
mkdir -p "$debs"
rm -rf "$debs/$package.partial" && rm -f "$debs/${package}"_*.deb
(cd "$debs" && apt-get "${download_opts[@]}" download -qq "$package")
dpkg-deb -x "$debs/${package}"_*.deb "$debs/$package.partial"
rm -f "$debs/${package}"_*.deb
mv "$debs/$package.partial" "$debs/$package"
