// PocketBrains' own matrix kernels for the encoder: packed-panel sgemm with fused epilogues,
// and the row-wise softmax and LayerNorm, each for three code paths chosen from CPUID at run
// time (AVX-512F, AVX2+FMA+F16C, portable C). The binary stays baseline x86-64: only the functions of
// a path are compiled for its instruction set (target attributes), and only called when
// pbk_supported() says the CPU and the OS have it.
//
// Why own kernels: a distribution's BLAS picks its kernels from family and model numbers, and on
// some CPUs a row's result then depends on how many rows share the call. Here every output row is
// computed by the same instruction sequence whatever the row count and the row's place in the
// block (row and column tails are zero-padded, edge tiles go through the same microkernel), so
// results are bit-identical across batch sizes and orders on each path, by construction.
#ifndef PBKERNELS_H
#define PBKERNELS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

enum { PBK_PORTABLE = 0, PBK_AVX2 = 1, PBK_AVX512 = 2, PBK_PATH_COUNT = 3 };

/// 1 when the CPU has the path's instructions and the OS saves their registers (XGETBV).
int pbk_supported(int path);
/// The fastest supported path.
int pbk_best(void);
/// "avx512", "avx2" or "portable".
const char *pbk_name(int path);

/// Floats needed to hold a right-hand operand of n columns and depth k in the path's panels.
size_t pbk_packed_size(int path, int n, int k);
/// Packs B (k rows, n columns; element (kk, j) at src[kk * k_stride + j * n_stride]) into panels
/// of NR columns, zero-padded. A PyTorch weight W[out, in] is B = W^T: k_stride 1, n_stride in.
void pbk_pack(int path, const float *src, ptrdiff_t k_stride, ptrdiff_t n_stride, int n, int k, float *dst);

/// Floats of scratch a pbk_gemm call needs (the packed block of A and an edge tile).
size_t pbk_work_size(int path);

/// What happens to a product before it is stored. C = epilogue(A B):
///   accumulate: C + A B (C holds the residual);  row_scale: (A B) * row_scale[i];
///   bias: + bias[j];  gelu: erf GELU of the result. accumulate and row_scale exclude each other.
typedef struct pbk_epilogue {
    const float *bias;
    const float *row_scale;
    int accumulate;
    int gelu;
} pbk_epilogue;

/// C[m, n] = epilogue(A[m, k] B[k, n]); A row-major with row stride lda, B packed by pbk_pack,
/// C row-major with row stride ldc. Single-threaded; `work` holds pbk_work_size(path) floats.
void pbk_gemm(int path, int m, int n, int k, const float *a, ptrdiff_t lda, const float *b_packed,
              float *c, ptrdiff_t ldc, pbk_epilogue epilogue, float *work);

/// For each of `rows` rows of n values (row stride ld): x = 2^(x - max(row)), in place, and
/// inverse_sums[r] = 1 / the row's new sum. Scores scaled by log2(e) make this a softmax.
void pbk_softmax_rows(int path, float *x, int rows, int n, ptrdiff_t ld, float *inverse_sums);

/// In place over rows of n values: x = (x - mean) / sqrt(var + eps) * gamma + beta.
void pbk_layer_norm(int path, float *x, int rows, int n, const float *gamma, const float *beta, float epsilon);

/// In place: x = gelu(x), erf form (the epilogue's function, for tests).
void pbk_gelu(int path, float *x, int n);

/// out[r] = the dot product of row r of a (rows of k values, row stride lda) with x, for r in
/// 0..<rows: dense search's scan over the vector file, and late interaction's similarities.
void pbk_dot_rows(int path, const float *a, int rows, int k, ptrdiff_t lda, const float *x, float *out);

/// pbk_dot_rows over rows of IEEE halves (a model's float16 weights), widened exactly: the
/// result equals pbk_dot_rows over the widened rows, bit for bit, with half the memory read.
void pbk_dot_rows_f16(int path, const unsigned short *a, int rows, int k, ptrdiff_t lda, const float *x, float *out);

/// dst[i] = src[i] widened from IEEE half to float, exactly.
void pbk_widen_f16(int path, const unsigned short *src, float *dst, size_t n);

/// Fused multiply-add throughput of one core on the path (GFLOP/s, a multiply-add counted as
/// two), from a register-only loop of independent chains run for about `seconds`.
double pbk_fma_peak_gflops(int path, double seconds);

#ifdef __cplusplus
}
#endif

#endif
