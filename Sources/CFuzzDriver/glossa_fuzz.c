#include "glossa_fuzz.h"

#ifdef GLOSSA_FUZZ
// In libclang_rt.fuzzer (LLVM 11 and later), which swiftc links for -sanitize=fuzzer. The strong
// reference here is what pulls libFuzzer's driver out of that archive.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
#endif

int glossa_fuzz_run_driver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size)) {
#ifdef GLOSSA_FUZZ
  return LLVMFuzzerRunDriver(argc, argv, callback);
#else
  (void)argc;
  (void)argv;
  (void)callback;
  return -1;
#endif
}
