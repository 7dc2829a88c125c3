/// The usage text: every form this tool takes, with its arguments.
enum Usage {
    static let text = """
        usage: glossa-neural-check REFS_JSON OUT_JSON
               glossa-neural-check --engine STORE_DIR PACKAGE_PATH_OR_URL REFS_JSON OUT_JSON
               glossa-neural-check --bench MODEL_DIR BATCH BEAM THREADS LENGTH REPEATS
               glossa-neural-check --gemm M N K REPEATS
          REFS_JSON     cases written by tests/tools/ct2_reference.py; OUT_JSON gets Glossa's outputs
                        (each case is also decoded on three threads, and must come out the same)
          --engine      the same through ModelStore (install PACKAGE into STORE_DIR, list, remove) and the
                        NeuralEngine API, translating the reference file's text case
          --bench       BATCH synthetic 20-token sources decoded to exactly LENGTH tokens with beam BEAM
                        on THREADS threads, best of REPEATS runs after one warm-up; prints
                        {"seconds", "tokens"}. MODEL_DIR: a CTranslate2 model directory, e.g. the
                        float32 or int8 one that `tests/tools/make_models.py DIR --bench` writes
                        (bench/bench_neural.py runs every configuration against CTranslate2)
          --gemm        the AVX-512 float32 kernel alone, one thread: C[M, N] = A[M, K]·W[N, K]ᵀ with random
                        values (N a multiple of 16), best of REPEATS after one warm-up; prints
                        {"seconds", "gflops", "checksum"}
        """
}
