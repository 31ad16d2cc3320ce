// One table of functions per code path (kernels_<path>.c); dispatch.c picks one by index.
#ifndef PBK_PATHS_H
#define PBK_PATHS_H
#include <stddef.h>
#include "pbkernels.h"

typedef struct pbk_path_table {
    size_t (*packed_size)(int n, int k);
    void (*pack)(const float *src, ptrdiff_t ks, ptrdiff_t ns, int n, int k, float *dst);
    size_t (*work_size)(void);
    void (*gemm)(int m, int n, int k, const float *a, ptrdiff_t lda, const float *bp, float *c, ptrdiff_t ldc,
                 pbk_epilogue ep, float *work);
    void (*softmax_rows)(float *x, int rows, int n, ptrdiff_t ld, float *inverse_sums);
    void (*layer_norm)(float *x, int rows, int n, const float *gamma, const float *beta, float eps);
    void (*gelu)(float *x, int n);
    void (*dot_rows)(const float *a, int rows, int k, ptrdiff_t lda, const float *x, float *out);
    void (*dot_rows_f16)(const unsigned short *a, int rows, int k, ptrdiff_t lda, const float *x, float *out);
    void (*widen_f16)(const unsigned short *src, float *dst, size_t n);
    double (*fma_loop)(long iterations);
    int flops_per_iteration;
} pbk_path_table;

extern const pbk_path_table pbk_portable, pbk_avx2, pbk_avx512;
#endif
