"""Which summation order CTranslate2's float GEMM (oneDNN sgemm, as attention runs it) uses on
this CPU, output by output: a reference check for AttentionKernels, not a test.

Calls `primitives<Device::CPU>::gemm_batch_strided<float, float>` from the ctranslate2 wheel's
library (CT2_USE_MKL=0: the oneDNN backend CTranslate2 uses on AMD CPUs and in the reference
tests) on random data, and compares each output bit for bit with candidate orders computed with
one rounding per fused multiply-add (emulated in 80-bit long double: the product of two floats is
exact there; a double rounding of the sum is possible but rare, so a pattern is read from many
outputs, not one).

Usage (from the repository root, after `make test` has made .venv):
    CT2_USE_MKL=0 .venv/bin/python tests/tools/sgemm_orders.py [DH] [--detail M,M,... [--n N]]
Without --detail: per row count m, how many outputs of C = A·Bᵀ (m × 11, depth DH, default 64)
each candidate matches. With --detail: a letter per output (C one chain, P eight lanes added
±1, ±4, ±2, l another candidate, ? none).
"""
import ctypes
import glob
import os
import sys

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GEMM = "_ZN11ctranslate210primitivesILNS_6DeviceE0EE18gemm_batch_stridedIffEEvbblllfPKT_llS6_llfPT0_lll"


def load_gemm():
    libs = glob.glob(os.path.join(ROOT, ".venv", "lib", "python3*", "site-packages", "ctranslate2.libs",
                                  "libctranslate2-*.so*"))
    if not libs:
        sys.exit("the ctranslate2 wheel is not in .venv (make test installs it)")
    f = getattr(ctypes.CDLL(libs[0]), GEMM)
    L, P = ctypes.c_long, ctypes.POINTER(ctypes.c_float)
    f.argtypes = [ctypes.c_bool, ctypes.c_bool, L, L, L, ctypes.c_float, P, L, L, P, L, L, ctypes.c_float,
                  P, L, L, L]
    return f, P


def gemm_nt(f, P, a, b):
    """C = A·Bᵀ through CTranslate2's CPU primitive (one batch)."""
    m, k = a.shape
    n = b.shape[0]
    c = np.zeros((m, n), np.float32)
    f(False, True, m, n, k, 1.0, a.ctypes.data_as(P), k, m * k, b.ctypes.data_as(P), k, n * k, 0.0,
      c.ctypes.data_as(P), n, m * n, 1)
    return c


def fma(a, b, c):
    return np.float32(np.longdouble(a) * np.longdouble(b) + np.longdouble(c))


def lanes(x, y, width):
    accs = [np.float32(0)] * width
    for p in range(len(x)):
        accs[p % width] = fma(x[p], y[p], accs[p % width])
    return accs


def chain(x, y):
    return lanes(x, y, 1)[0]


def halving(v):
    v = list(v)
    while len(v) > 1:
        h = len(v) // 2
        v = [np.float32(v[i] + v[i + h]) for i in range(h)]
    return v[0]


def pairwise8(v):
    """Lanes added as i ± 1, then ± 4, then ± 2 (AttentionKernels' m = 1 order)."""
    for step in (1, 4, 2):
        v = [np.float32(v[i] + v[i ^ step]) for i in range(8)]
    return v[0]


def sequential(v):
    acc = np.float32(0)
    for x in v:
        acc = np.float32(acc + x)
    return acc


CANDIDATES = {
    "chain": chain,
    "lanes8-pairwise": lambda x, y: pairwise8(lanes(x, y, 8)),
    "lanes16-halving": lambda x, y: halving(lanes(x, y, 16)),
    "lanes8-halving": lambda x, y: halving(lanes(x, y, 8)),
    "lanes4-halving": lambda x, y: halving(lanes(x, y, 4)),
    "lanes8-sequential": lambda x, y: sequential(lanes(x, y, 8)),
    "lanes16-sequential": lambda x, y: sequential(lanes(x, y, 16)),
}


def main():
    args = sys.argv[1:]
    dh = int(args[0]) if args and args[0].isdigit() else 64
    f, P = load_gemm()
    rng = np.random.default_rng(1)
    if "--detail" in args:
        n = int(args[args.index("--n") + 1]) if "--n" in args else 20
        for m in map(int, args[args.index("--detail") + 1].split(",")):
            a = rng.standard_normal((m, dh)).astype(np.float32)
            b = rng.standard_normal((n, dh)).astype(np.float32)
            c = gemm_nt(f, P, a, b)
            print("m=%d n=%d dh=%d" % (m, n, dh))
            for i in range(m):
                row = ""
                for j in range(n):
                    ok = [name for name, fn in CANDIDATES.items() if fn(a[i], b[j]) == c[i, j]]
                    row += "C" if "chain" in ok else "P" if "lanes8-pairwise" in ok else "l" if ok else "?"
                print(row)
        return
    for m in (1, 2, 3, 4, 7, 8, 15, 16, 17, 32):
        n = 11
        a = rng.standard_normal((m, dh)).astype(np.float32)
        b = rng.standard_normal((n, dh)).astype(np.float32)
        c = gemm_nt(f, P, a, b)
        counts = {name: sum(int(fn(a[i], b[j]) == c[i, j]) for i in range(m) for j in range(n))
                  for name, fn in CANDIDATES.items()}
        print("m=%d: %d outputs;" % (m, m * n), ", ".join("%s %d" % kv for kv in counts.items()), flush=True)


if __name__ == "__main__":
    main()
