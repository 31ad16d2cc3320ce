// The AVX2+FMA path: a 6 x 16 microkernel (12 ymm accumulators, two B loads and six broadcasts
// per step), compiled for AVX2, FMA and F16C only inside this file.
#include <string.h>
#include "pbkernels.h"
#include "paths.h"

#if defined(__x86_64__)
#include <immintrin.h>

#pragma clang attribute push(__attribute__((target("avx2,fma,f16c"))), apply_to = function)

typedef __m256 vf;
typedef int vi __attribute__((vector_size(32)));
#define VW 8
#define MR 6
#define NRV 2
#ifndef KC
#define KC 256
#endif
#ifndef MC
#define MC 120
#endif
#define LOADU(p) _mm256_loadu_ps(p)
#define STOREU(p, v) _mm256_storeu_ps((p), (v))
#define FMA(a, b, c) _mm256_fmadd_ps((a), (b), (c))
#define SPLAT(x) _mm256_set1_ps(x)
#define LOADH(p) _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(const void *)(p)))
#define PBK_FN(name) name##_avx2

#include "kernels.inc"

#pragma clang attribute pop

const pbk_path_table pbk_avx2 = {
    packed_size_avx2, pack_avx2, work_size_avx2, gemm_avx2, softmax_rows_avx2,
    layer_norm_avx2, gelu_avx2, dot_rows_avx2, dot_rows_f16_avx2, widen_f16_avx2, fma_loop_avx2, 2 * 12 * VW,
};
#else
const pbk_path_table pbk_avx2 = {0};
#endif
