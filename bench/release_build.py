"""The one way the benchmarks build a release product: with the same flags as `make build-release`
(and `make deb`), since .build/release holds one build per flag set. A product built there
without `--static-swift-stdlib` relinks the plugin tools and re-embeds the data files, and the
next `make serve` then rebuilds and relinks `glossa` (about 40 s here) with nothing changed."""
import pathlib
import subprocess

ROOT = pathlib.Path(__file__).resolve().parent.parent
FLAGS = ["-c", "release", "--static-swift-stdlib"]


def build(product: str) -> pathlib.Path:
    """Builds `product` in release mode and returns its path."""
    subprocess.run(["swift", "build", *FLAGS, "--product", product], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    return ROOT / ".build" / "release" / product
