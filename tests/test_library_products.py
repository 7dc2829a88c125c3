"""Glossa's engines as libraries of another package: Examples/EngineLibraries is a Swift package
of its own (not one of Glossa's targets) that depends on this checkout by path and uses the
TranslationService, ApertiumEngine, LanguageDetection and NeuralEngine products in its own
process. The test builds it with SwiftPM, as its user would, and runs it on real Apertium pairs.

The dependency is declared `.package(name: "Glossa", path: "../..")`, so the products resolve
whatever this checkout's folder is called (CI's clone has another name than a developer's)."""
import os
import shutil
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLE = os.path.join(ROOT, "Examples", "EngineLibraries")
# Kept between runs (SwiftPM rebuilds only what changed); the first build takes a few minutes.
SCRATCH = os.path.join(os.environ.get("TEST_OUTPUT", os.path.join(ROOT, "test-output")), "engine-libraries-build")


def test_another_package_translates_and_detects_with_the_engine_libraries(tmp_path):
    swift = shutil.which("swift")
    if swift is None:
        pytest.fail("swift is not on PATH: the example package is built with SwiftPM, as Glossa itself")
    if not os.path.isdir("/usr/share/apertium/modes"):
        pytest.skip("needs Debian's Apertium pairs (make deps installs apertium-eng-spa)")
    build = subprocess.run([swift, "build", "--package-path", EXAMPLE, "--scratch-path", SCRATCH],
                           capture_output=True, text=True, timeout=1800)
    assert build.returncode == 0, build.stdout[-3000:] + build.stderr[-3000:]
    binary = os.path.join(SCRATCH, "debug", "EnginesInProcess")
    # An empty models folder of its own: no neural model, the Apertium pairs of this machine.
    run = subprocess.run([binary, "--models", str(tmp_path / "models"), "--target", "es",
                          "The house is red.", "Guten Morgen, wie geht es dir?"],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    routes = int(lines[0].split()[1])
    assert routes > 0, lines
    assert lines[1].startswith("detected: en ") and lines[2] == "detected: de 0.99", lines
    assert "en → es: La casa es roja." in lines, lines
    # German, recognised; this machine has no German pair, so the text comes back as it was.
    assert any(line.startswith("de → es: ") for line in lines), lines
