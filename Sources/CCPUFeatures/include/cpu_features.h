// Whether this CPU runs the instructions NeuralEngine is compiled for (AVX2 and FMA).
// Built without those flags itself, so it is safe to call on any x86-64 CPU.
#ifndef GLOSSA_CPU_FEATURES_H
#define GLOSSA_CPU_FEATURES_H
#ifdef __cplusplus
extern "C" {
#endif
/// 1 when AVX2 and FMA are available (always 1 on non-x86 builds), else 0.
int glossa_cpu_has_avx2_fma(void);
#ifdef __cplusplus
}
#endif
#endif
