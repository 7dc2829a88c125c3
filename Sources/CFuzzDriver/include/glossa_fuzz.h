// libFuzzer's driver, reached from Swift. Only the `make fuzz` build (GLOSSA_FUZZ=1, see
// Package.swift) defines GLOSSA_FUZZ and links libFuzzer; every other build gets -1 back.
#ifndef GLOSSA_FUZZ_H
#define GLOSSA_FUZZ_H

#include <stddef.h>
#include <stdint.h>

/// Runs libFuzzer (LLVMFuzzerRunDriver) with `argc`/`argv` over `callback`; returns its exit
/// status, or -1 when this build has no libFuzzer.
int glossa_fuzz_run_driver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
