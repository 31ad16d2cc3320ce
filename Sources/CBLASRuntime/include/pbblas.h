// The system CBLAS, loaded at run time (dlopen of libblas.so.3, which Debian's alternatives
// point at OpenBLAS) and only by a process that asks for it: the encoder's `blas` reference path
// and the benchmarks that measure it. Linking libblas into every program cost each start about
// 7 ms, and OpenBLAS's constructor starts worker threads that spin on sched_yield for their first
// tenth of a second, taking a core from the encoder's own workers in every short-lived filter.
#ifndef PBBLAS_H
#define PBBLAS_H

#ifdef __cplusplus
extern "C" {
#endif

/// 1 when a CBLAS library is loaded (the first call loads it; later calls only answer).
int pbb_available(void);
/// Why loading failed ("" when it did not), and the file that was loaded ("" when none).
const char *pbb_error(void);
const char *pbb_library(void);

/// Row-major C[m, n] = alpha A[m, k] op(B) + beta C; op(B) is B[k, n], or B[n, k] transposed
/// when trans_b is 1. Only call when pbb_available() is 1.
void pbb_sgemm(int trans_b, int m, int n, int k, float alpha, const float *a, int lda, const float *b, int ldb,
               float beta, float *c, int ldc);

/// OpenBLAS's thread count and kernel family ("Haswell", "SkylakeX", "Prescott", ...); -1 and
/// NULL for a BLAS without them (or none loaded). Setting is a no-op there.
int pbb_get_threads(void);
void pbb_set_threads(int threads);
const char *pbb_corename(void);

#ifdef __cplusplus
}
#endif

#endif
