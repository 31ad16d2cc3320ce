// Loads the system CBLAS on first use; see pbblas.h for why it is not linked.
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include "pbblas.h"

// The CBLAS enums, by value (cblas.h is not needed to call through a pointer).
enum { ROW_MAJOR = 101, NO_TRANS = 111, TRANS = 112 };

typedef void (*sgemm_fn)(int, int, int, int, int, int, float, const float *, int, const float *, int, float,
                         float *, int);
typedef int (*get_threads_fn)(void);
typedef void (*set_threads_fn)(int);
typedef char *(*corename_fn)(void);

static pthread_once_t once = PTHREAD_ONCE_INIT;
static sgemm_fn sgemm;
static get_threads_fn get_threads;
static set_threads_fn set_threads;
static corename_fn corename;
static char error[512];
static char library[256];

static void load(void) {
    // libblas.so.3 is the alternatives link (OpenBLAS or the reference BLAS, both with CBLAS);
    // libopenblas.so.0 is OpenBLAS under its own name, where the link points elsewhere.
    static const char *const names[] = {"libblas.so.3", "libopenblas.so.0", "libcblas.so.3"};
    error[0] = 0;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        void *handle = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
        if (!handle) {
            const char *why = dlerror();
            snprintf(error, sizeof error, "%s", why ? why : names[i]);
            continue;
        }
        sgemm = (sgemm_fn)dlsym(handle, "cblas_sgemm");
        if (!sgemm) {
            snprintf(error, sizeof error, "%s has no cblas_sgemm", names[i]);
            dlclose(handle);
            continue;
        }
        get_threads = (get_threads_fn)dlsym(handle, "openblas_get_num_threads");
        set_threads = (set_threads_fn)dlsym(handle, "openblas_set_num_threads");
        corename = (corename_fn)dlsym(handle, "openblas_get_corename");
        snprintf(library, sizeof library, "%s", names[i]);
        error[0] = 0;
        return;
    }
}

int pbb_available(void) {
    pthread_once(&once, load);
    return sgemm != NULL;
}

const char *pbb_error(void) {
    pthread_once(&once, load);
    return error;
}

const char *pbb_library(void) {
    pthread_once(&once, load);
    return library;
}

void pbb_sgemm(int trans_b, int m, int n, int k, float alpha, const float *a, int lda, const float *b, int ldb,
               float beta, float *c, int ldc) {
    pthread_once(&once, load);
    sgemm(ROW_MAJOR, NO_TRANS, trans_b ? TRANS : NO_TRANS, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

int pbb_get_threads(void) {
    pthread_once(&once, load);
    return get_threads ? get_threads() : -1;
}

void pbb_set_threads(int threads) {
    pthread_once(&once, load);
    if (set_threads) set_threads(threads);
}

const char *pbb_corename(void) {
    pthread_once(&once, load);
    return corename ? corename() : NULL;
}
