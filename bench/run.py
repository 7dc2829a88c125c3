"""`make bench`: runs every bench/bench_*.py in turn; each prints its own report and writes JSON
under bench-output/. Figures are ratios against the peer measured in the same run."""
import pathlib
import subprocess
import sys

here = pathlib.Path(__file__).resolve().parent
only = sys.argv[1:]
failed = []
for script in sorted(here.glob("bench_*.py")):
    if only and script.stem.removeprefix("bench_") not in only:
        continue
    print(f"\n=== {script.stem} ===", flush=True)
    if subprocess.run([sys.executable, str(script)]).returncode != 0:
        failed.append(script.stem)
sys.exit(1 if failed else 0)
