// Whether this CPU runs the instructions NeuralEngine is compiled for (AVX2 and FMA).
// Built without those flags itself, so it is safe to call on any x86-64 CPU.
#ifndef GLOSSA_CPU_FEATURES_H
#define GLOSSA_CPU_FEATURES_H
#ifdef __cplusplus
extern "C" {
#endif
/// 1 when AVX2 and FMA are available (always 1 on non-x86 builds), else 0.
int glossa_cpu_has_avx2_fma(void);
/// 1 when AVX-512 F/BW/VL and VNNI are available (the int8 `vpdpbusd` kernel), else 0.
/// What the CPU has, nothing else: GLOSSA_INT8_KERNEL=avx2 (run the AVX2 kernels anyway) is
/// applied where NeuralEngine picks its kernels (CPUBackend), not here.
int glossa_cpu_has_avx512_vnni(void);
#ifdef __cplusplus
}
#endif
#endif
