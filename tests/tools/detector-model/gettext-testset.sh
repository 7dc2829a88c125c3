#!/usr/bin/env bash
# Builds the gettext test set (see GETTEXT_TESTSET.md): installs the Debian packages whose .mo
# catalogues it is cut from (idempotently), unpacks a few LibreOffice language packs, and runs
# export-gettext-testset.py on exactly those catalogues.
# Usage: tests/tools/detector-model/gettext-testset.sh [OUT_DIR]
#   OUT_DIR: default .build/detector-model/gettext-testdata under the repository root.
# Then: make detect-accuracy DETECT_TESTDATA=OUT_DIR (an absolute path).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../../.." && pwd)
out=${1:-$root/.build/detector-model/gettext-testdata}

# Catalogues already on most Debian systems (essential tools, GTK, GLib, iso-codes, xkb-data).
# Left out although often installed: postgresql, git, binutils, make, gawk and systemd (long
# technical messages), packagekit and software-properties (heavy), and libraries whose package
# name carries a soname version.
base_pkgs=(coreutils tar grep sed findutils diffutils bash dpkg apt login adduser libc-l10n gettext-base
           psmisc procps xz-utils wget gnupg-l10n man-db libpam-runtime iso-codes xkb-data shared-mime-info
           xdg-user-dirs gsettings-desktop-schemas libglib2.0-data libgtk-3-common libgtk2.0-common
           at-spi2-common libgdk-pixbuf2.0-common python-apt-common libavahi-common-data)
# Data-only packages of GNOME and Xfce (100-120 languages each, am ur yo zu xh mi among them) and
# Debian's own tools: about 18 MB to download, with no daemons or libraries pulled in.
extra_pkgs=(libgtk-4-common gnome-desktop3-data gnome-menus nautilus-data gnome-control-center-data
            gedit-common evince-common totem-common mutter-common gnome-shell-common
            gnome-settings-daemon-common libgnomekbd-common libsecret-common thunar-data libxfce4ui-common
            gnome-software-common debconf-i18n tasksel-data util-linux-locales aptitude-common)
# The only catalogues of Southern Sotho, Tswana, Tsonga and Silesian found in Debian. Installing them
# would pull libreoffice-common and the UNO runtime (about 35 MB) for 1 MB of catalogues, so they
# are downloaded and unpacked under .build instead.
unpacked_pkgs=(libreoffice-l10n-st libreoffice-l10n-tn libreoffice-l10n-ts libreoffice-l10n-szl)

want=("${base_pkgs[@]}" "${extra_pkgs[@]}")
missing=()
for p in "${want[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
# Another apt run may hold dpkg's lock: wait for it rather than fail.
apt_opts=(-o DPkg::Lock::Timeout=900)
if [ ${#missing[@]} -gt 0 ]; then
  echo "gettext-testset: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get "${apt_opts[@]}" update -qq
  $sudo apt-get "${apt_opts[@]}" install -y -qq --no-install-recommends "${missing[@]}"
fi

debs=$root/.build/detector-model/gettext-debs
locale_dirs=(--locale-dir /usr/share/locale)
for p in "${unpacked_pkgs[@]}"; do
  "$here/unpack-deb.sh" "$debs" "$p"
  locale_dirs+=(--locale-dir "$debs/$p/usr/lib/libreoffice/program/resource")
done

packages=$(IFS=,; echo "${want[*]}")
python3 "$here/export-gettext-testset.py" "$here/languages.tsv" "$out" --packages "$packages" "${locale_dirs[@]}"
