// The portable path: plain C over 4-lane vectors that any target's compiler maps to its own
// SIMD (SSE2 on baseline x86-64, NEON on aarch64). A 6 x 8 microkernel (fifteen of the sixteen SSE registers). Multiply and add stay
// separate on x86-64 (baseline has no FMA); where the target fuses them, it does so everywhere.
#include <string.h>
#include "pbkernels.h"
#include "paths.h"

typedef float vf __attribute__((vector_size(16)));
typedef int vi __attribute__((vector_size(16)));
#define VW 4
#define MR 6
#define NRV 2
#define KC 256
#define MC 72

static inline vf loadu_portable(const float *p) { vf v; memcpy(&v, p, sizeof v); return v; }
static inline void storeu_portable(float *p, vf v) { memcpy(p, &v, sizeof v); }
static inline vf splat_portable(float x) { vf v = {x, x, x, x}; return v; }
#define LOADU(p) loadu_portable(p)
#define STOREU(p, v) storeu_portable((p), (v))
#define FMA(a, b, c) ((a) * (b) + (c))
#define SPLAT(x) splat_portable(x)
#define PBK_FN(name) name##_portable
static inline float half_portable(unsigned short h);
static inline vf loadh_portable(const unsigned short *p) {
    vf v = {half_portable(p[0]), half_portable(p[1]), half_portable(p[2]), half_portable(p[3])};
    return v;
}
#define LOADH(p) loadh_portable(p)

#include "kernels.inc"

const pbk_path_table pbk_portable = {
    packed_size_portable, pack_portable, work_size_portable, gemm_portable,
    softmax_rows_portable, layer_norm_portable, gelu_portable, dot_rows_portable,
    dot_rows_f16_portable, widen_f16_portable, fma_loop_portable, 2 * 12 * VW,
};
