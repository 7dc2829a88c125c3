#!/usr/bin/env python3
"""Compares CLD2's default tables (libcld2) with its full tables (libcld2_full) on FLORES-200 dev.

Why Glossa links libcld2_full (see Package.swift): this prints, for each table set, accuracy
on the held-out lines 801-997 of every FLORES file, as full sentences and short prefixes,
with and without CLD2's best-effort flag.

It builds the Glossa shim (Sources/CCLD2Shim) twice with g++, once against each table set,
and loads each build in its own process (both define the same table symbols, so one process
can only ever use one set). Test tooling only; nothing here is part of the product.

Usage: tests/tools/cld2-tables/compare.py [FLORES_DIR]
"""
import ctypes, glob, os, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
# FLORES stem -> the CLD2 code that counts as right ("no" is CLD2's Bokmål).
EXPECTED = dict(afr="af", arb="ar", ast="ast", bos="bs", bul="bg", cat="ca", dan="da", deu="de",
                ell="el", eng="en", epo="eo", eus="eu", fra="fr", glg="gl", hin="hi", hrv="hr",
                ind="id", isl="is", ita="it", jpn="ja", kor="ko", mkd="mk", nld="nl", nno="nn",
                nob="no", oci="oc", por="pt", rus="ru", spa="es", srp="sr", swe="sv", ukr="uk",
                zsm="ms")
CUTS = ["full", "1 word", "2 words", "3 words", "20 chars"]


class Result(ctypes.Structure):
    _fields_ = [("code", (ctypes.c_char * 16) * 3), ("percent", ctypes.c_int * 3),
                ("normalized_score", ctypes.c_double * 3), ("text_bytes", ctypes.c_int),
                ("is_reliable", ctypes.c_int), ("valid_prefix_bytes", ctypes.c_size_t)]


def cut(line, name):
    if name == "full":
        return line
    if name == "20 chars":
        return line[:20]
    return " ".join(line.split()[:int(name[0])])


def expected(stem):
    if stem == "zho_Hans":
        return "zh"
    if stem == "zho_Hant":
        return "zh-Hant"
    return EXPECTED[stem[:3]]


def evaluate(library, flores):
    shim = ctypes.CDLL(library)
    shim.glossa_cld2_detect.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p,
                                        ctypes.c_int, ctypes.POINTER(Result)]
    files = sorted(glob.glob(os.path.join(flores, "*.dev")))
    for best_effort in (0, 1):
        right, total = {c: 0 for c in CUTS}, 0
        for path in files:
            stem = os.path.basename(path)[:-4]
            lines = open(path, encoding="utf-8").read().split("\n")[800:997]
            total += len(lines)
            for line in lines:
                for name in CUTS:
                    data, result = cut(line, name).encode(), Result()
                    shim.glossa_cld2_detect(data, len(data), None, best_effort, ctypes.byref(result))
                    right[name] += result.code[0].value.decode() == expected(stem)
        label = "best-effort" if best_effort else "plain"
        print(f"| {os.path.basename(library)[10:-3]} {label} | "
              + " | ".join(f"{100 * right[c] / total:.1f}" for c in CUTS) + " |")


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--evaluate":
        evaluate(sys.argv[2], os.environ["FLORES_DIR"])
        return
    flores = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(ROOT), "shared", "data", "flores200-dev")
    with tempfile.TemporaryDirectory() as tmp:
        print("| Tables | " + " | ".join(CUTS) + " |\n|---|" + "---:|" * len(CUTS))
        for tables in (["-lcld2"], ["-lcld2_full", "-lcld2"]):
            library = os.path.join(tmp, "libglossa_" + tables[0][2:] + ".so")
            subprocess.run(["g++", "-O2", "-shared", "-fPIC", "-I" + os.path.join(ROOT, "Sources/CCLD2Shim/include"),
                            os.path.join(ROOT, "Sources/CCLD2Shim/cld2_shim.cpp"), "-o", library,
                            "-Wl,--no-as-needed", *tables], check=True)
            subprocess.run([sys.executable, __file__, "--evaluate", library], check=True,
                           env={**os.environ, "FLORES_DIR": flores})


if __name__ == "__main__":
    main()
