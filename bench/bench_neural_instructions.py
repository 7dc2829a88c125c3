#!/usr/bin/env python3
"""Instructions per output token, counted by valgrind's callgrind (repeatable under any load):
Glossa's neural engine against CTranslate2 on the model and the configurations of
bench/bench_neural.py (transformer-base-sized random model from tests/tools/make_models.py
--bench; float32 and int8; beam 1 and 4; batch 1 and 32; 1 and 2 threads).

    .venv/bin/python bench/bench_neural_instructions.py [--quick] [--length N] [--only CONFIG ...]
        CONFIG: TYPE:BEAM:BATCH:THREADS, e.g. float32:4:32:1     (part of make bench)
    .venv/bin/python bench/bench_neural_instructions.py --profile CALLGRIND_FILE ...
        (exclusive instructions by function)

Only the translation is counted, on both sides: model loading, start-up and a warm-up
translation are left out. Both run under valgrind with callgrind's instrumentation off
(`--instr-atstart=no`: uncounted, and much faster than counting) until the warm-up call is done.
- Glossa: `glossa-neural-check --bench MODEL BATCH BEAM THREADS LENGTH 1` (the release build,
  debug info stripped: valgrind 3.19 cannot read the DWARF 5 Swift's clang writes, see
  bench/bench_instructions.py); gdb, attached through valgrind's gdbserver, stops at the second
  entry of Translator.translate(_:options:threads:), turns the instrumentation on (`monitor
  instrumentation on`) and detaches; `--zero-before`/`--dump-after` on the translate(_:options:
  workspace:) it calls then dump exactly the measured translation.
- CTranslate2: the same translate_batch as bench_neural.py (same sources, options, one
  translator with intra_threads=THREADS) in a Python process; after the warm-up call the
  script sends valgrind's gdbserver (`vgdb --pid=ITSELF`) `instrumentation on`, `zero`, runs
  translate_batch, `dump`, then `zero` and `dump` again with nothing between; the second dump
  (what running vgdb from Python adds, ~0.5 M) is subtracted from the first.
CTranslate2's environment: natively on this AMD CPU its default is oneDNN (MKL only on Intel;
CT2_VERBOSE=1 says so), so bench_neural.py's `default` and `onednn` are the same backend there.
Under valgrind the CPU reads as GenuineIntel and the default would switch to MKL, so every run
sets CT2_USE_MKL=0 (its log, with the backend lines, is kept beside the callgrind files). With
two threads it is counted with active and with passive OpenMP waiting (OMP_WAIT_POLICY=PASSIVE,
bench_neural.py's `passive`) and the lower count is its figure: callgrind runs one thread at a
time, so a spinning thread's waiting is counted. Each run has a gdbserver prefix of its own
(`callgrind_control -z`/`-d` without a PID act on every callgrind run with the default prefix).
Without gdb (Debian package gdb) Glossa runs instrumented throughout (slower; the same counts).
Tokens: output tokens of the measured call, batch × LENGTH on both sides (asserted). LENGTH
(default 8; bench_neural.py times 32) is shorter because callgrind runs tens of times slower; the
encoder's share per token is larger at a shorter length, on both sides alike. --quick: batch 1
only. --only: the named configurations; their rows replace those of the same configuration
and length in bench-output/neural-instructions.json, the others are kept. The callgrind files
are under bench-output/callgrind-neural/ (`--profile FILE`, or `callgrind_annotate --inclusive=yes FILE`).
"""
import concurrent.futures
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import time

import callgrind_files  # bench/callgrind_files.py, beside this script
import release_build  # bench/release_build.py, beside this script

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "bench-output", "callgrind-neural")
MODELS = os.path.join(ROOT, "bench-output", "neural")
# Translator.translate(_:options:threads:) (public; makes a Workspace and calls the next) and
# Translator.translate(_:options:workspace:) (the translation), as Swift mangles them.
# Translator.translate(_:options:threads:) and the translate(_:options:workspace:) it calls, by
# the start of their mangled names: the rest names the argument types' modules, which move.
GLOSSA_TRANSLATE_PREFIX = "$s12NeuralEngine10TranslatorC9translate_7options7threads"
GLOSSA_INNER_PREFIX = "$s12NeuralEngine10TranslatorC9translate_7options9workspace"
GLOSSA_TRANSLATE = GLOSSA_INNER = None   # set by main() from the binary's symbols


def translate_symbol(symbols, prefix):
    """The one function symbol that starts with `prefix` (ending in KF: a throwing function,
    not a thunk or a specialisation), or None."""
    found = {line.split()[-1] for line in symbols.splitlines()
             if line.split() and line.split()[-1].startswith(prefix) and line.split()[-1].endswith("KF")}
    return found.pop() if len(found) == 1 else None

CT2_SCRIPT = r'''
import json, os, subprocess, sys, ctranslate2
model, batch, beam, threads, length = sys.argv[1], *map(int, sys.argv[2:6])
t = ctranslate2.Translator(model, device="cpu", inter_threads=1, intra_threads=threads)
src = [["tok%d" % ((i * 7919 + b * 104729) % 31000) for i in range(20)] for b in range(batch)]
kw = dict(beam_size=beam, length_penalty=1.0, max_decoding_length=length, no_repeat_ngram_size=0)
t.translate_batch(src, **kw)
# vgdb itself, with this run's own gdbserver prefix (see vgdb_prefix); it waits for each answer.
prefix = "--vgdb-prefix=" + os.environ["VGDB_PREFIX"]
control = lambda *a: subprocess.run(["vgdb", prefix, "--pid=%d" % os.getpid(), *a], check=True, capture_output=True)
control("instrumentation", "on")
control("zero")
out = t.translate_batch(src, **kw)
control("dump")
control("zero")   # the same with nothing between: what the two commands themselves add
control("dump")
print(json.dumps({"tokens": sum(len(r.hypotheses[0]) for r in out)}))
'''


def totals(path):
    count = callgrind_files.program_and_instructions(path)[1]
    if count is None:
        raise RuntimeError("no totals in " + path)
    return count


def profile(path, top=25):
    """Exclusive instructions by function in a callgrind file, highest first. (callgrind_annotate
    3.19 gives every instruction of a mid-run dump to the outermost function in its exclusive
    view; its --inclusive=yes view is right.)"""
    names, cost, fn, call_line = {}, {}, None, False

    def name(text):
        m = re.match(r"\((\d+)\)(?: (.*))?$", text)
        if not m:
            return text
        if m.group(2):
            names[m.group(1)] = m.group(2)
        return names.get(m.group(1), text)
    with open(path, errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("fn="):
                fn, call_line = name(line[3:]), False
            elif line.startswith("cfn="):
                name(line[4:])
            elif line.startswith("calls="):
                call_line = True          # the next cost line is the call's inclusive cost
            elif line[:1].isdigit() or line[:1] in "+-*":
                if call_line:
                    call_line = False
                elif fn is not None and len(line.split()) > 1:
                    cost[fn] = cost.get(fn, 0) + int(line.split()[1])
    total = sum(cost.values())
    print(f"{total:,} instructions in {path}")
    for f, v in sorted(cost.items(), key=lambda kv: -kv[1])[:top]:
        print(f"{v:15,} {100 * v / total:5.1f}%  {f[:160]}")


def vgdb_prefix(folder, name):
    """A gdbserver prefix of this run's own: `callgrind_control -z`/`-d` without a PID (as
    bench_instructions.py sends them) acts on every callgrind run that uses the default prefix,
    and would zero or dump these counts from outside."""
    return os.path.join(folder, "vgdb-" + name)


def run_glossa(tool, model, batch, beam, threads, length, folder):
    """Glossa's second translate call: valgrind starts with instrumentation off (loading runs at
    valgrind's plain speed, uncounted) and waits for gdb; gdb stops at the second entry of
    Translator.translate(_:options:threads:), turns callgrind's instrumentation on and detaches;
    the inner translate(_:options:workspace:) is then zeroed before and dumped after. Without
    gdb (Debian package gdb), everything is instrumented (slower) and the second dump counts."""
    out = os.path.join(folder, "glossa.cg")
    with_gdb = shutil.which("gdb") is not None
    prefix = vgdb_prefix(folder, "glossa")
    cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", f"--vgdb-prefix={prefix}",
           f"--zero-before={GLOSSA_INNER}", f"--dump-after={GLOSSA_INNER}"]
    if with_gdb:
        cmd += ["--instr-atstart=no", "--vgdb=yes", "--vgdb-error=0"]
    cmd += [tool, "--bench", model, str(batch), str(beam), str(threads), str(length), "1"]
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    gdb_output = ""
    if with_gdb:
        gdb = ["gdb", "-batch", "-nx", tool, "-ex", f"target remote | vgdb --vgdb-prefix={prefix} --pid={p.pid}",
               "-ex", f"break '{GLOSSA_TRANSLATE}'", "-ex", "continue", "-ex", "continue",
               "-ex", "monitor instrumentation on", "-ex", "delete", "-ex", "detach"]
        time.sleep(2)
        g = subprocess.run(gdb, capture_output=True, text=True)
        gdb_output = g.stdout + g.stderr
    stdout, stderr = p.communicate()
    if p.returncode != 0 or (with_gdb and "Breakpoint 1," not in gdb_output):
        raise RuntimeError("glossa failed: " + stderr[-2000:] + gdb_output[-2000:])
    result = json.loads(stdout.strip().splitlines()[-1])
    dumps = sorted(glob.glob(out + ".*"), key=lambda f: int(f.rsplit(".", 1)[1]))
    assert len(dumps) == (1 if with_gdb else 2), dumps   # the last is the measured call's
    return {"instructions": totals(dumps[-1]), "tokens": result["tokens"], "file": dumps[-1]}


def run_ct2(model, batch, beam, threads, length, folder, env_name):
    out = os.path.join(folder, f"ct2-{env_name}.cg")
    # CT2_USE_MKL=0: the backend CTranslate2 takes natively on this AMD CPU (oneDNN); under
    # valgrind the CPU reads as GenuineIntel and its default would switch to MKL.
    env = {**os.environ, "CT2_VERBOSE": "1", "CT2_USE_MKL": "0", "VGDB_PREFIX": vgdb_prefix(folder, env_name)}
    if env_name == "onednn-passive":
        env.update({"OMP_WAIT_POLICY": "PASSIVE", "KMP_BLOCKTIME": "0"})
    cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", "--instr-atstart=no",
           "--vgdb-prefix=" + env["VGDB_PREFIX"], sys.executable, "-c", CT2_SCRIPT, model, str(batch), str(beam), str(threads), str(length)]
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    with open(os.path.join(folder, f"ct2-{env_name}.log"), "w") as f:
        f.write(p.stderr)
    if p.returncode != 0:
        raise RuntimeError("ctranslate2 failed: " + p.stderr[-2000:])
    result = json.loads(p.stdout.strip().splitlines()[-1])
    dumps = sorted(glob.glob(out + ".*"), key=lambda f: int(f.rsplit(".", 1)[1]))
    assert len(dumps) == 2, dumps   # the measured call's, then the empty one's
    assert totals(dumps[0]) > 10 * totals(dumps[1]), dumps
    backend = re.findall(r"\[info\]\s+(?:- )?((?:CPU|Selected ISA|Use Intel MKL|SGEMM backend|GEMM_S8 backend|Selected compute type)[^\n]*)",
                         p.stderr)
    backend = list(dict.fromkeys(backend))
    return {"instructions": totals(dumps[0]) - totals(dumps[1]), "tokens": result["tokens"], "file": dumps[0],
            "env": env_name, "backend": backend, "control_overhead": totals(dumps[1])}


def main():
    argv = sys.argv[1:]
    if argv[:1] == ["--profile"]:
        for path in argv[1:]:
            profile(path)
        return 0
    quick = "--quick" in argv
    length = int(argv[argv.index("--length") + 1]) if "--length" in argv else 8
    only = argv[argv.index("--only") + 1:] if "--only" in argv else []
    if not shutil.which("valgrind"):
        print("valgrind is not installed (Debian package valgrind)")
        return 1
    tool = os.environ.get("GLOSSA_NEURAL_CHECK")
    if not tool:
        tool = str(release_build.build("glossa-neural-check"))
    os.makedirs(OUT, exist_ok=True)
    stripped = callgrind_files.stripped_copy(tool, os.path.join(OUT, "glossa-neural-check"))
    symbols = subprocess.run(["nm", stripped], check=True, capture_output=True, text=True).stdout
    global GLOSSA_TRANSLATE, GLOSSA_INNER
    GLOSSA_TRANSLATE = translate_symbol(symbols, GLOSSA_TRANSLATE_PREFIX)
    GLOSSA_INNER = translate_symbol(symbols, GLOSSA_INNER_PREFIX)
    for symbol, prefix in ((GLOSSA_TRANSLATE, GLOSSA_TRANSLATE_PREFIX), (GLOSSA_INNER, GLOSSA_INNER_PREFIX)):
        if symbol is None:
            print("glossa-neural-check has not exactly one function %s…: Translator.translate changed its "
                  "signature; update GLOSSA_TRANSLATE_PREFIX/GLOSSA_INNER_PREFIX" % prefix)
            return 1
    paths = {q: os.path.join(MODELS, "base_" + q) for q in ("float32", "int8")}
    if not all(os.path.exists(os.path.join(p, "model.bin")) for p in paths.values()):   # as bench_neural.py makes them
        paths = json.loads(subprocess.run([sys.executable, os.path.join(ROOT, "tests", "tools", "make_models.py"),
                                           MODELS, "--bench"], check=True, capture_output=True, text=True).stdout)
    configs = [(q, beam, batch, threads) for q in ("float32", "int8") for batch in (1, 32) for beam in (1, 4)
               for threads in (1, 2)]
    if quick:
        configs = [c for c in configs if c[2] == 1]
    if only:
        configs = [c for c in configs if "%s:%d:%d:%d" % c in only]
    results = os.path.join(ROOT, "bench-output", "neural-instructions.json")
    if not only and os.path.exists(results):
        os.remove(results)
    print("Instructions per output token (callgrind; output length %d; the measured translate call only):" % length)
    print("%-7s %4s %5s %7s %14s %14s %6s  %s" % ("type", "beam", "batch", "threads", "Glossa", "CTranslate2", "ratio",
                                                 "ct2 env"), flush=True)
    for quant, beam, batch, threads in configs:
        folder = os.path.join(OUT, "%s-beam%d-batch%d-threads%d" % (quant, beam, batch, threads))
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)
        envs = ["onednn"] + (["onednn-passive"] if threads > 1 else [])
        # Two CPUs: the sides run side by side (counts do not depend on the load).
        with concurrent.futures.ThreadPoolExecutor(max_workers=1 + len(envs)) as pool:
            ours_f = pool.submit(run_glossa, stripped, paths[quant], batch, beam, threads, length, folder)
            ct2_f = [pool.submit(run_ct2, paths[quant], batch, beam, threads, length, folder, e) for e in envs]
            ours = ours_f.result()
            ct2_all = [f.result() for f in ct2_f]
        ct2 = min(ct2_all, key=lambda r: r["instructions"])
        assert ours["tokens"] == ct2["tokens"] == batch * length, (ours, ct2)
        row = {"type": quant, "beam": beam, "batch": batch, "threads": threads, "length": length,
               "tokens": ours["tokens"],
               "glossa_per_token": ours["instructions"] / ours["tokens"],
               "ct2_per_token": ct2["instructions"] / ct2["tokens"], "ct2_env": ct2["env"],
               "ct2_all_envs": {r["env"]: r["instructions"] / r["tokens"] for r in ct2_all},
               "ct2_backend": ct2["backend"], "glossa_file": ours["file"], "ct2_file": ct2["file"]}
        row["ratio"] = row["glossa_per_token"] / row["ct2_per_token"]
        # Re-read before writing: rows of other configurations (or lengths) are kept.
        rows = []
        if os.path.exists(results):
            with open(results) as f:
                rows = [r for r in json.load(f) if (r["type"], r["beam"], r["batch"], r["threads"], r["length"])
                        != (quant, beam, batch, threads, length)]
        rows.append(row)
        print("%-7s %4d %5d %7d %14s %14s %6.2f  %s" % (quant, beam, batch, threads, f"{row['glossa_per_token']:,.0f}",
                                                        f"{row['ct2_per_token']:,.0f}", row["ratio"], ct2["env"]),
              flush=True)
        os.makedirs(os.path.join(ROOT, "bench-output"), exist_ok=True)
        with open(results, "w") as f:
            json.dump(rows, f, indent=2)
        print("    CTranslate2 under valgrind: " + "; ".join(ct2["backend"]), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
