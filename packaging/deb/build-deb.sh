#!/usr/bin/env bash
# Builds the Debian package: build/deb/glossa_VERSION_amd64.deb (what `make deb` runs).
#
#   /usr/lib/glossa/glossa, glossa-apertium-tagger  release binaries, the Swift runtime and
#                                                 Foundation linked in (--static-swift-stdlib);
#                                                 the web app is embedded in glossa. glossa runs
#                                                 the tagger found beside it (/proc/self/exe).
#   /usr/bin/glossa                               a link to /usr/lib/glossa/glossa
#   /lib/systemd/system/glossa.service            `glossa serve` as the glossa user
#   /etc/default/glossa                           its settings (a conffile)
#   /usr/share/man/man1/glossa*.1.gz              from each command's --help (manpage.awk)
#
# Depends: the Debian packages of the shared libraries the binaries link (dpkg-shlibdeps),
# plus apertium (glossa runs /usr/bin/apertium-wblank-mode); Recommends: the default pairs.
# Environment: SWIFT (the swift driver), DEB_OUT (default build/deb), DEB_VERSION (default
# from git and `glossa --version`), DEB_MAINTAINER (default: the author of HEAD).
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
here=$root/packaging/deb
SWIFT=${SWIFT:-$(command -v swift || echo /opt/swift/usr/bin/swift)}
out=${DEB_OUT:-$root/build/deb}
# The pairs `make serve` installs (scripts/install-deps.sh's default_pairs).
recommends=(apertium-eng-spa apertium-eng-cat apertium-spa-cat apertium-es-pt apertium-fr-es apertium-es-gl)

for tool in dpkg-deb dpkg-shlibdeps; do
  command -v "$tool" >/dev/null || { echo "make deb: $tool is missing (Debian's dpkg-dev; scripts/install-deps.sh deb installs it)" >&2; exit 1; }
done

cd "$root"
stage=$out/stage
# The flags are the Makefile's RELEASE_FLAGS (and bench/release_build.py's): one build per flag set.
bin=$("$SWIFT" build -c release --static-swift-stdlib --show-bin-path)
# The build folder is shared: another build of the same products without
# --static-swift-stdlib may relink them between our build and our copy. The copies are
# checked, and built again when that happened.
build() { # build PRODUCT, again when a source changed under it (others edit the checkout)
  local log=$out/swift-build.log try
  for try in 1 2 3 4 5; do
    if "$SWIFT" build -c release --static-swift-stdlib --product "$1" 2>&1 | tee "$log"; then return 0; fi
    grep -q "was modified during the build" "$log" || return 1
    echo "make deb: a source file changed during the build; building again" >&2
  done
  return 1
}
install -d "$out"
for attempt in 1 2 3; do
  build glossa
  build glossa-apertium-tagger
  rm -rf "$stage"
  install -d "$stage/usr/lib/glossa" "$stage/usr/bin" "$stage/DEBIAN"
  install -m 0755 "$bin/glossa" "$bin/glossa-apertium-tagger" "$stage/usr/lib/glossa/"
  linked=$(ldd "$stage/usr/lib/glossa/glossa" "$stage/usr/lib/glossa/glossa-apertium-tagger")
  if ! grep -Eq 'libswift|libFoundation|libdispatch|not found' <<<"$linked"; then
    break
  fi
  if [ "$attempt" = 3 ]; then
    echo "make deb: the binaries in $bin link the Swift runtime dynamically (another build relinked them?):" >&2
    echo "$linked" >&2
    exit 1
  fi
  echo "make deb: $bin was relinked without --static-swift-stdlib meanwhile; building again" >&2
done
strip --strip-unneeded "$stage/usr/lib/glossa/glossa" "$stage/usr/lib/glossa/glossa-apertium-tagger"
ln -s ../lib/glossa/glossa "$stage/usr/bin/glossa"
glossa=$stage/usr/lib/glossa/glossa

# VERSION: a release tag (v1.2.0 -> 1.2.0), its descendants 1.2.0+gitN.HASH; without a tag the
# program's own version (`glossa --version`) + gitCOUNT.HASH, which grows with every commit.
program_version=$("$glossa" --version | awk '{ print $2 }')
if [ -n "${DEB_VERSION:-}" ]; then
  version=$DEB_VERSION
elif described=$(git describe --tags --long --match 'v[0-9]*' --match '[0-9]*' 2>/dev/null); then
  tag=${described%-*-g*}; rest=${described#"$tag"-}; count=${rest%%-*}; hash=${rest#*-g}
  version=${tag#v}
  if [ "$count" != 0 ]; then version="$version+git$count.$hash"; fi
elif count=$(git rev-list --count HEAD 2>/dev/null); then
  version="$program_version+git$count.$(git rev-parse --short=7 HEAD)"
else
  version=$program_version
fi
maintainer=${DEB_MAINTAINER:-$(git log -1 --format='%an <%ae>' 2>/dev/null || echo "Glossa maintainers <root@localhost>")}

# Man pages: glossa(1), glossa-COMMAND(1) for each command of `glossa --help`, and
# glossa-COMMAND-SUB(1) for each subcommand a command's USAGE names (models install, keys create…).
man=$stage/usr/share/man/man1
install -d "$man"
date=$(date -u -d "@${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}" +%Y-%m-%d)
# (The awk programs read to the end: glossa exits 141 when its reader goes away.)
commands=$("$glossa" --help | awk '/^COMMANDS:/ { on = 1; next } /^$/ { on = 0 } on && $1 != "help" { print $1 }')
pages=()
page() { # page NAME SUMMARY ARGS...: one man page from `glossa ARGS... --help`
  local name=$1 summary=$2; shift 2
  "$glossa" "$@" --help | awk -v page="$name" -v summary="$summary" -v version="$version" -v date="$date" \
    -v seealso="$see_also" -f "$here/manpage.awk" | gzip -9n > "$man/$name.1.gz"
  pages+=("$name")
}
see_also="glossa(1), $(for c in $commands; do printf 'glossa-%s(1), ' "$c"; done | sed 's/, $//')"
page glossa "offline translation and language detection"
for c in $commands; do
  summary=$("$glossa" --help | awk -v c="$c" '/^COMMANDS:/ { on = 1; next } /^$/ { on = 0 } on && $1 == c { $1 = ""; sub(/^ +/, ""); print }')
  page "glossa-$c" "$summary" "$c"
  # Subcommands: the word after `glossa c` on each USAGE line, when the command has several.
  subs=$("$glossa" "$c" --help | awk -v c="$c" '/^$/ { done = 1 } done { next } { sub(/^USAGE: */, ""); sub(/^ +/, "") }
    $1 == "glossa" && $2 == c && $3 ~ /^[a-z][a-z-]*$/ && !seen[$3]++ { print $3 }')
  if [ "$(wc -w <<<"$subs")" -gt 1 ]; then
    for s in $subs; do page "glossa-$c-$s" "$c $s (see glossa-$c(1))" "$c" "$s"; done
  fi
done

install -d "$stage/lib/systemd/system" "$stage/etc/default" "$stage/usr/share/doc/glossa"
install -m 0644 "$here/glossa.service" "$stage/lib/systemd/system/glossa.service"
install -m 0644 "$here/glossa.default" "$stage/etc/default/glossa"
install -m 0644 "$here/README.Debian" "$stage/usr/share/doc/glossa/README.Debian"
install -m 0755 "$here/postinst" "$here/prerm" "$here/postrm" "$stage/DEBIAN/"
echo /etc/default/glossa > "$stage/DEBIAN/conffiles"

# dpkg-shlibdeps reads debian/control of the folder it runs in: a minimal one, outside the stage.
shlibs=$out/shlibs
rm -rf "$shlibs"; install -d "$shlibs/debian"
printf 'Source: glossa\n\nPackage: glossa\nArchitecture: amd64\n' > "$shlibs/debian/control"
(cd "$shlibs" && dpkg-shlibdeps -O -e"$stage/usr/lib/glossa/glossa" -e"$stage/usr/lib/glossa/glossa-apertium-tagger") > "$shlibs/substvars"
depends=$(sed -n 's/^shlibs:Depends=//p' "$shlibs/substvars")
[ -n "$depends" ] || { echo "make deb: dpkg-shlibdeps found no dependencies" >&2; exit 1; }

cat > "$stage/DEBIAN/control" <<EOF
Package: glossa
Version: $version
Architecture: amd64
Maintainer: $maintainer
Installed-Size: $(du -sk --exclude=DEBIAN "$stage" | cut -f1)
Depends: $depends, apertium
Recommends: $(IFS=,; echo "${recommends[*]}" | sed 's/,/, /g')
Section: net
Priority: optional
Description: offline translation service (Google, DeepL, LibreTranslate and APy APIs)
 Glossa translates text and documents and detects languages offline, with
 Apertium's rule-based pairs and neural (Argos Translate) models. Its HTTP
 service speaks the Google Cloud Translation v2 and v3, LibreTranslate, DeepL
 and Apertium APy protocols, so existing clients work by changing the base URL,
 and serves a web app.
 .
 This package runs "glossa serve" as a systemd service (glossa.service) as the
 glossa user, with its data in /var/lib/glossa and its settings in
 /etc/default/glossa. The recommended apertium-* packages are the default
 language pairs; any other Apertium pair package adds its languages.
EOF

deb=$out/glossa_${version}_amd64.deb
rm -f "$out"/glossa_*_amd64.deb
dpkg-deb --root-owner-group -Zxz --build "$stage" "$deb" >/dev/null
echo "make deb: $deb ($(du -h "$deb" | cut -f1); ${#pages[@]} man pages)"
echo "Depends: $depends, apertium"
