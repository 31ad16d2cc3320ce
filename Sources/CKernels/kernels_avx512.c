// The AVX-512F path: a 12 x 32 microkernel (24 zmm accumulators, two B loads and twelve
// broadcasts per step), compiled for AVX-512F only inside this file.
#include <string.h>
#include "pbkernels.h"
#include "paths.h"

#if defined(__x86_64__)
#include <immintrin.h>

#pragma clang attribute push(__attribute__((target("avx512f,avx2,fma"))), apply_to = function)

typedef __m512 vf;
typedef int vi __attribute__((vector_size(64)));
#define VW 16
#define MR 12
#define NRV 2
#ifndef KC
#define KC 384
#endif
#ifndef MC
#define MC 96
#endif
#define LOADU(p) _mm512_loadu_ps(p)
#define STOREU(p, v) _mm512_storeu_ps((p), (v))
#define FMA(a, b, c) _mm512_fmadd_ps((a), (b), (c))
#define SPLAT(x) _mm512_set1_ps(x)
#define LOADH(p) _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)(const void *)(p)))
#define PBK_FN(name) name##_avx512

#include "kernels.inc"

#pragma clang attribute pop

const pbk_path_table pbk_avx512 = {
    packed_size_avx512, pack_avx512, work_size_avx512, gemm_avx512, softmax_rows_avx512,
    layer_norm_avx512, gelu_avx512, dot_rows_avx512, dot_rows_f16_avx512, widen_f16_avx512, fma_loop_avx512, 2 * 12 * VW,
};
#else
const pbk_path_table pbk_avx512 = {0};
#endif
