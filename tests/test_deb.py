"""`make deb` as a self-hoster meets it: the package installed with apt into a clean Debian 12
(bookworm) root made by debootstrap from Debian's mirror, so its Depends and Recommends are
resolved from Debian's packages alone (no Swift toolchain, nothing of this machine's). There,
`glossa translate` answers, and `glossa serve`, started as its systemd unit would start it (the
unit's user, environment, /etc/default/glossa and ExecStart, read from the installed files:
systemd itself does not run in a chroot), answers a translation over HTTP.

GLOSSA_DEB=path/to/glossa_*.deb tests a package built before; otherwise the test runs `make deb`.
The debootstrapped root is cached in test-output/deb-root-cache (rebuilt after 30 days), and so
are the .deb files apt downloads, so a run after the first takes a few minutes. Needs root
(debootstrap, chroot): CI runs `make test` as root."""
import concurrent.futures
import glob
import json
import os
import pathlib
import re
import shlex
import shutil
import signal
import socket
import subprocess
import time
import urllib.request

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUTPUT = pathlib.Path(os.environ.get("TEST_OUTPUT", ROOT / "test-output")).resolve()
CACHE = OUTPUT / "deb-root-cache"
SUITE = "bookworm"
# man-db: `man -w glossa` in the root, as on a standard Debian system.
INCLUDE = ["man-db"]
ROOT_TARBALL = CACHE / f"debian-{SUITE}-minbase-{'-'.join(INCLUDE)}.tar.gz"
ROOT_MAX_AGE_S = 30 * 24 * 3600
CHROOT = OUTPUT / "deb-root"
CLEAN_ENV = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8",
             "HOME": "/root", "DEBIAN_FRONTEND": "noninteractive"}


def debian_mirror() -> str:
    """The Debian mirror this machine's apt uses (GLOSSA_DEB_MIRROR overrides it)."""
    if os.environ.get("GLOSSA_DEB_MIRROR"):
        return os.environ["GLOSSA_DEB_MIRROR"].rstrip("/")
    for path in sorted(glob.glob("/etc/apt/sources.list.d/*.sources")):
        for stanza in pathlib.Path(path).read_text().split("\n\n"):
            fields = dict(re.findall(r"^(\w[\w-]*):\s*(.*)$", stanza, re.M))
            if SUITE in fields.get("Suites", "").split() and "deb" in fields.get("Types", "").split():
                return fields["URIs"].split()[0].rstrip("/")
    for path in ["/etc/apt/sources.list", *sorted(glob.glob("/etc/apt/sources.list.d/*.list"))]:
        if os.path.exists(path):
            for line in pathlib.Path(path).read_text().splitlines():
                words = re.sub(r"\[[^]]*\]", "", line).split()
                if len(words) >= 3 and words[0] == "deb" and words[2] == SUITE:
                    return words[1].rstrip("/")
    return "http://deb.debian.org/debian"


def sh(args, timeout=600, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(args, capture_output=True, text=True, timeout=timeout, **kwargs)


def in_root(*args, timeout=300, env=None) -> subprocess.CompletedProcess:
    """Runs a command in the root as root, with a clean environment."""
    return sh(["chroot", str(CHROOT), "/usr/bin/env", "-i", *[f"{k}={v}" for k, v in (env or CLEAN_ENV).items()], *args],
              timeout=timeout)


def mounts_under(path: pathlib.Path) -> list[str]:
    points = [line.split()[1] for line in pathlib.Path("/proc/self/mounts").read_text().splitlines()]
    return [p for p in points if p == str(path) or p.startswith(str(path) + "/")]


def processes_in(path: pathlib.Path) -> list[int]:
    """Processes whose root is the chroot (what the test started there)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if os.readlink(f"/proc/{entry}/root") == str(path):
                    found.append(int(entry))
            except OSError:
                pass
    return found


def remove_root():
    """Ends what runs in the root, unmounts its /proc, then deletes it; never deletes through a
    mount point."""
    if not CHROOT.exists():
        return
    for pid in processes_in(CHROOT):
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    for point in sorted(mounts_under(CHROOT), reverse=True):
        subprocess.run(["umount", "-l", point], check=False)
    left = mounts_under(CHROOT)
    assert not left, f"cannot unmount {left}: {CHROOT} is left in place"
    shutil.rmtree(CHROOT)


def build_package() -> pathlib.Path:
    if os.environ.get("GLOSSA_DEB"):
        deb = pathlib.Path(os.environ["GLOSSA_DEB"]).resolve()
        assert deb.is_file(), f"GLOSSA_DEB={deb} is not a file"
        return deb
    OUTPUT.mkdir(parents=True, exist_ok=True)
    build = sh(["make", "-C", str(ROOT), "deb"], timeout=2400)
    (OUTPUT / "deb-build.log").write_text(build.stdout + build.stderr)
    assert build.returncode == 0, f"make deb failed (log: {OUTPUT / 'deb-build.log'}):\n{build.stdout[-3000:]}{build.stderr[-3000:]}"
    debs = sorted((ROOT / "build" / "deb").glob("glossa_*_amd64.deb"), key=os.path.getmtime)
    assert debs, f"make deb wrote no build/deb/glossa_*_amd64.deb:\n{build.stdout[-2000:]}"
    return debs[-1]


def make_root(mirror: str):
    """A fresh root from the cached debootstrap tarball (made first when missing or old)."""
    CACHE.mkdir(parents=True, exist_ok=True)
    if not ROOT_TARBALL.exists() or time.time() - ROOT_TARBALL.stat().st_mtime > ROOT_MAX_AGE_S:
        fresh = CACHE / "debootstrap"
        if fresh.exists():
            assert not mounts_under(fresh), f"{fresh} has mounts: remove them by hand"
            shutil.rmtree(fresh)
        made = sh(["debootstrap", "--variant=minbase", f"--include={','.join(INCLUDE)}", SUITE, str(fresh), mirror],
                  timeout=1200)
        assert made.returncode == 0, f"debootstrap {SUITE} from {mirror} failed:\n{made.stdout[-3000:]}{made.stderr[-3000:]}"
        assert not mounts_under(fresh), f"debootstrap left mounts under {fresh}"
        partial = ROOT_TARBALL.with_suffix(".partial")
        packed = sh(["tar", "-C", str(fresh), "--numeric-owner", "-czf", str(partial), "."])
        assert packed.returncode == 0, packed.stderr
        partial.rename(ROOT_TARBALL)
        shutil.rmtree(fresh)
    CHROOT.mkdir(parents=True)
    unpacked = sh(["tar", "-C", str(CHROOT), "--numeric-owner", "-xzf", str(ROOT_TARBALL)])
    assert unpacked.returncode == 0, unpacked.stderr
    security = mirror.rsplit("/", 1)[0] + "/debian-security" if mirror.endswith("/debian") else "http://deb.debian.org/debian-security"
    (CHROOT / "etc/apt/sources.list").write_text(
        f"deb {mirror} {SUITE} main\ndeb {mirror} {SUITE}-updates main\ndeb {security} {SUITE}-security main\n")
    shutil.copyfile("/etc/resolv.conf", CHROOT / "etc/resolv.conf")
    # glossa reads /proc/self/exe to find glossa-apertium-tagger beside it.
    mounted = sh(["mount", "-t", "proc", "proc", str(CHROOT / "proc")])
    assert mounted.returncode == 0, f"cannot mount /proc in {CHROOT}: {mounted.stderr}"
    update = in_root("apt-get", "update", "-qq", timeout=600)
    assert update.returncode == 0, update.stdout + update.stderr


def apt_install(deb: pathlib.Path):
    """apt installs the package from a path, so its Depends and Recommends come from Debian."""
    archives = CACHE / "archives"
    archives.mkdir(exist_ok=True)
    target = CHROOT / "var/cache/apt/archives"
    for cached in archives.glob("*.deb"):
        shutil.copy2(cached, target)
    shutil.copyfile(deb, CHROOT / "tmp" / deb.name)
    install = in_root("apt-get", "install", "-y", "-q", f"/tmp/{deb.name}", timeout=1200)
    (OUTPUT / "deb-apt-install.log").write_text(install.stdout + install.stderr)
    assert install.returncode == 0, install.stdout[-4000:] + install.stderr[-4000:]
    # Keep what this install downloaded, and only that, for the next run.
    for old in archives.glob("*.deb"):
        old.unlink()
    for fetched in target.glob("*.deb"):
        shutil.copy2(fetched, archives)


@pytest.fixture(scope="module")
def installed():
    """The package, installed in a fresh Debian 12 root; yields its path."""
    if os.geteuid() != 0:
        pytest.skip("needs root: debootstrap and chroot make the clean Debian 12 root (CI runs make test as root)")
    missing = [tool for tool in ["debootstrap", "chroot", "dpkg-deb", "mount"] if shutil.which(tool) is None]
    assert not missing, f"missing {missing}: make deps-test installs debootstrap and dpkg-dev"
    started = time.monotonic()
    remove_root()
    try:
        # The root (debootstrap on a first run: about 2 minutes, mostly waiting on the network)
        # is made while the package builds.
        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            root = pool.submit(make_root, debian_mirror())
            deb = build_package()
            built = time.monotonic()
            root.result()  # (leaving the block waits for the root even when the build failed)
        apt_install(deb)
        print(f"\ndeb: {deb.name} ({deb.stat().st_size / 1e6:.1f} MB), built in {built - started:.0f} s, "
              f"installed with apt in {time.monotonic() - built:.0f} s more")
        yield deb
    finally:
        remove_root()


def test_package_declares_debian_dependencies_and_ships_no_swift_runtime(installed):
    fields = {name: sh(["dpkg-deb", "-f", str(installed), name]).stdout.strip()
              for name in ["Depends", "Recommends", "Version"]}
    depends = [d.strip().split()[0] for d in fields["Depends"].split(",")]
    for package in ["libc6", "apertium", "libapertium3", "libcurl4", "libmicrohttpd12", "libsqlite3-0"]:
        assert package in depends, fields["Depends"]
    assert not any("swift" in d for d in depends), fields["Depends"]
    for pair in ["apertium-eng-spa", "apertium-eng-cat", "apertium-spa-cat", "apertium-es-pt", "apertium-fr-es", "apertium-es-gl"]:
        assert pair in fields["Recommends"], fields["Recommends"]
    # Recommends are installed, as apt does by default.
    status = in_root("dpkg-query", "-W", "-f=${Status}", "apertium-eng-spa")
    assert status.stdout == "install ok installed", status.stdout + status.stderr
    # The binaries need nothing the root lacks: every library they link is found there.
    for binary in ["/usr/lib/glossa/glossa", "/usr/lib/glossa/glossa-apertium-tagger"]:
        linked = in_root("ldd", binary)
        assert linked.returncode == 0 and "not found" not in linked.stdout and "swift" not in linked.stdout, linked.stdout


def test_glossa_translate_in_a_clean_debian(installed):
    run = in_root("glossa", "translate", "--from", "en", "--to", "es", "Good morning", timeout=300)
    assert run.returncode == 0, run.stderr
    assert run.stdout == "Buenos días\n", run.stdout + run.stderr
    version = in_root("glossa", "--version")
    assert version.returncode == 0 and version.stdout.startswith("glossa "), version.stdout + version.stderr


def unit_command(port: int) -> tuple[str, dict[str, str], list[str], str]:
    """(user, environment, argv, working directory) of glossa.service, as systemd would run it
    with /etc/default/glossa setting LISTEN_PORT=port."""
    unit = (CHROOT / "lib/systemd/system/glossa.service").read_text()
    settings = [(m.group(1), m.group(2).strip()) for m in re.finditer(r"^(\w+)=(.*)$", unit, re.M)]
    default = CHROOT / "etc/default/glossa"
    text = default.read_text()
    assert re.search(r"^LISTEN_PORT=", text, re.M), text
    default.write_text(re.sub(r"^LISTEN_PORT=.*$", f"LISTEN_PORT={port}", text, flags=re.M))
    env = {"PATH": CLEAN_ENV["PATH"], "LANG": "C.UTF-8"}
    user, directory, exec_start = "root", "/", None
    for key, value in settings:
        if key == "User":
            user = value
        elif key == "WorkingDirectory":
            directory = value
        elif key == "ExecStart":
            exec_start = value
        elif key == "Environment":
            env.update(item.split("=", 1) for item in shlex.split(value))
        elif key == "EnvironmentFile":
            path = CHROOT / value.lstrip("-").lstrip("/")
            if path.exists() or not value.startswith("-"):
                for line in path.read_text().splitlines():
                    line = line.strip()
                    if line and not line.startswith("#"):
                        name, _, val = line.partition("=")
                        env[name.strip()] = val.strip()
    assert exec_start, unit
    argv = []
    for word in shlex.split(exec_start):
        whole = re.fullmatch(r"\$(\w+)", word)
        if whole:  # $VAR: split at whitespace, nothing when empty (systemd.service(5))
            argv += env.get(whole.group(1), "").split()
        else:  # ${VAR}: one word
            argv.append(re.sub(r"\$\{(\w+)\}", lambda m: env.get(m.group(1), ""), word))
    return user, env, argv, directory


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_the_unit_serves_a_translation_as_the_glossa_user(installed):
    port = free_port()
    user, env, argv, directory = unit_command(port)
    assert user == "glossa"
    assert argv[:2] == ["/usr/bin/glossa", "serve"] and argv[argv.index("--port") + 1] == str(port), argv
    assert argv[argv.index("--host") + 1] == "127.0.0.1", argv
    log_path = OUTPUT / "deb-serve.log"
    with open(log_path, "w") as log:
        # chroot and env exec in turn: the PID is glossa's own.
        server = subprocess.Popen(["chroot", f"--userspec={user}:{user}", str(CHROOT), "/usr/bin/env", "-i",
                                   "-C", directory, *[f"{k}={v}" for k, v in env.items()], *argv],
                                  stdout=log, stderr=subprocess.STDOUT)
    try:
        def log_tail():
            return log_path.read_text()[-3000:]
        url = f"http://127.0.0.1:{port}/language/translate/v2?q=Good+morning&source=en&target=es"
        deadline = time.monotonic() + 180
        answer = None
        while time.monotonic() < deadline:
            assert server.poll() is None, f"glossa serve exited with {server.returncode}:\n{log_tail()}"
            try:
                with urllib.request.urlopen(url, timeout=30) as response:
                    answer = json.load(response)
                    break
            except OSError:
                time.sleep(0.5)
        assert answer is not None, f"no translation from the server within 180 s:\n{log_tail()}"
        assert answer["data"]["translations"][0]["translatedText"] == "Buenos días", answer
        uid = next(line.split()[1] for line in pathlib.Path(f"/proc/{server.pid}/status").read_text().splitlines()
                   if line.startswith("Uid:"))
        glossa_uid = next(line.split(":")[2] for line in (CHROOT / "etc/passwd").read_text().splitlines()
                          if line.startswith("glossa:"))
        assert uid == glossa_uid, f"glossa serve runs as uid {uid}, not glossa's {glossa_uid}"
    finally:
        if server.poll() is None:
            server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=60)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
    assert server.returncode == 0, f"glossa serve exited with {server.returncode} on SIGTERM:\n{log_path.read_text()[-3000:]}"
    # Its data and cache live where the unit says, owned by its user.
    for folder in ["var/lib/glossa", "var/cache/glossa"]:
        stat = (CHROOT / folder).stat()
        assert str(stat.st_uid) == glossa_uid, f"/{folder} is owned by uid {stat.st_uid}"


def test_man_pages_are_installed(installed):
    for page in ["glossa", "glossa-serve", "glossa-translate", "glossa-models-install"]:
        found = in_root("man", "-w", page)
        assert found.returncode == 0 and found.stdout.strip() == f"/usr/share/man/man1/{page}.1.gz", found.stdout + found.stderr
    shown = in_root("man", "-P", "cat", "glossa-serve", env={**CLEAN_ENV, "MANWIDTH": "100"})
    assert shown.returncode == 0, shown.stderr
    assert "glossa serve [--host 127.0.0.1] [--port 8080]" in shown.stdout, shown.stdout[:2000]
    assert "--drain-seconds N" in shown.stdout and "GLOSSA_PIPELINES" in shown.stdout, shown.stdout


def test_systemd_accepts_the_unit(installed, tmp_path):
    # Enabled on installation (postinst, as debhelper does), so it starts at the next boot.
    wants = CHROOT / "etc/systemd/system/multi-user.target.wants/glossa.service"
    assert os.readlink(wants) == "/lib/systemd/system/glossa.service"
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed here (Debian systemd)")
    # Checked on this machine, whose systemd has the units it refers to (the minimal root has no
    # systemd); verify checks that ExecStart's program exists, so it names the root's binary.
    unit = (CHROOT / "lib/systemd/system/glossa.service").read_text()
    assert "ExecStart=/usr/bin/glossa serve " in unit, unit
    (tmp_path / "glossa.service").write_text(unit.replace("ExecStart=/usr/bin/glossa", f"ExecStart={CHROOT}/usr/bin/glossa"))
    checked = sh([analyze, "verify", "--man=no", str(tmp_path / "glossa.service")], timeout=120)
    # An unknown or misspelt setting is only a warning ("Unknown key …, ignoring"): none allowed.
    assert checked.returncode == 0 and checked.stdout + checked.stderr == "", checked.stdout + checked.stderr


def test_removal_keeps_the_data_and_purge_the_settings(installed):
    # Last: it removes the package from the module's root.
    (CHROOT / "var/lib/glossa/kept").write_text("data")
    removed = in_root("apt-get", "remove", "-y", "-q", "glossa")
    assert removed.returncode == 0, removed.stdout + removed.stderr
    assert not (CHROOT / "usr/lib/glossa/glossa").exists()
    assert (CHROOT / "etc/default/glossa").exists()  # a conffile: kept until purge
    purged = in_root("apt-get", "purge", "-y", "-q", "glossa")
    assert purged.returncode == 0, purged.stdout + purged.stderr
    assert not (CHROOT / "etc/default/glossa").exists() and not (CHROOT / "var/cache/glossa").exists()
    assert (CHROOT / "var/lib/glossa/kept").read_text() == "data"
    assert not (CHROOT / "etc/systemd/system/multi-user.target.wants/glossa.service").exists()
