// Which code paths this CPU and OS can run, from CPUID leaves 1 and 7 and XGETBV: feature bits
// only, never family or model numbers (a table of those is what goes stale in a BLAS build).
#include <time.h>
#include "pbkernels.h"
#include "paths.h"

#if defined(__x86_64__)
#include <cpuid.h>

static unsigned long long xgetbv0(void) {
    unsigned int lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((unsigned long long)hi << 32) | lo;
}

static int detect(void) {
    unsigned int a, b, c, d;
    int mask = 1 << PBK_PORTABLE;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return mask;
    int fma = (c >> 12) & 1, osxsave = (c >> 27) & 1, avx = (c >> 28) & 1, f16c = (c >> 29) & 1;
    if (!osxsave || !avx || !f16c) return mask;
    unsigned long long xcr0 = xgetbv0();
    int ymm = (xcr0 & 0x6) == 0x6;          // SSE and AVX state saved by the OS
    int zmm = (xcr0 & 0xE6) == 0xE6;        // and opmask, ZMM0-15 upper halves, ZMM16-31
    if (__get_cpuid_max(0, 0) < 7) return mask;
    __cpuid_count(7, 0, a, b, c, d);
    int avx2 = (b >> 5) & 1, avx512f = (b >> 16) & 1;
    if (ymm && avx2 && fma) mask |= 1 << PBK_AVX2;
    if (zmm && avx512f && avx2 && fma) mask |= 1 << PBK_AVX512;
    return mask;
}
#else
static int detect(void) { return 1 << PBK_PORTABLE; }
#endif

static int supported_mask(void) {
    static int mask = -1;   // a benign race: every thread computes the same value
    if (mask < 0) mask = detect();
    return mask;
}

static const pbk_path_table *table(int path) {
    switch (path) {
    case PBK_AVX512: return &pbk_avx512;
    case PBK_AVX2: return &pbk_avx2;
    default: return &pbk_portable;
    }
}

int pbk_supported(int path) {
    return path >= 0 && path < PBK_PATH_COUNT && ((supported_mask() >> path) & 1);
}

int pbk_best(void) {
    for (int p = PBK_PATH_COUNT - 1; p > 0; p--)
        if (pbk_supported(p)) return p;
    return PBK_PORTABLE;
}

const char *pbk_name(int path) {
    switch (path) {
    case PBK_AVX512: return "avx512";
    case PBK_AVX2: return "avx2";
    case PBK_PORTABLE: return "portable";
    default: return "unknown";
    }
}

size_t pbk_packed_size(int path, int n, int k) { return table(path)->packed_size(n, k); }
void pbk_pack(int path, const float *src, ptrdiff_t ks, ptrdiff_t ns, int n, int k, float *dst) {
    table(path)->pack(src, ks, ns, n, k, dst);
}
size_t pbk_work_size(int path) { return table(path)->work_size(); }

void pbk_gemm(int path, int m, int n, int k, const float *a, ptrdiff_t lda, const float *b, float *c,
              ptrdiff_t ldc, pbk_epilogue ep, float *work) {
    table(path)->gemm(m, n, k, a, lda, b, c, ldc, ep, work);
}

void pbk_softmax_rows(int path, float *x, int rows, int n, ptrdiff_t ld, float *inverse_sums) {
    table(path)->softmax_rows(x, rows, n, ld, inverse_sums);
}

void pbk_layer_norm(int path, float *x, int rows, int n, const float *gamma, const float *beta, float eps) {
    table(path)->layer_norm(x, rows, n, gamma, beta, eps);
}

void pbk_gelu(int path, float *x, int n) { table(path)->gelu(x, n); }

void pbk_dot_rows(int path, const float *a, int rows, int k, ptrdiff_t lda, const float *x, float *out) {
    table(path)->dot_rows(a, rows, k, lda, x, out);
}

void pbk_dot_rows_f16(int path, const unsigned short *a, int rows, int k, ptrdiff_t lda, const float *x, float *out) {
    table(path)->dot_rows_f16(a, rows, k, lda, x, out);
}

void pbk_widen_f16(int path, const unsigned short *src, float *dst, size_t n) { table(path)->widen_f16(src, dst, n); }

static double now_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

double pbk_fma_peak_gflops(int path, double seconds) {
    const pbk_path_table *t = table(path);
    long iterations = 1 << 20;
    double best = 0, sink = 0;
    double end = now_seconds() + seconds;
    while (now_seconds() < end) {
        double start = now_seconds();
        sink += t->fma_loop(iterations);
        double elapsed = now_seconds() - start;
        double rate = (double)iterations * t->flops_per_iteration / elapsed / 1e9;
        if (rate > best) best = rate;
    }
    // The results feed nothing; reading them keeps the loop from being removed.
    return sink == 12345.678 ? 0 : best;
}
