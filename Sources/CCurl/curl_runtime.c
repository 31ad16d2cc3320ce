// libcurl through dlopen; see pbcurl.h. The option and info numbers are libcurl's stable ABI
// (curl.h is in libcurl-dev, which a machine running PocketBrains need not have).
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pbcurl.h"

enum {
    OPT_WRITEDATA = 10001, OPT_URL = 10002, OPT_POSTFIELDS = 10015, OPT_HTTPHEADER = 10023,
    OPT_HEADERDATA = 10029, OPT_NOPROXY = 10177, OPT_WRITEFUNCTION = 20011, OPT_HEADERFUNCTION = 20079, OPT_POST = 47,
    OPT_FOLLOWLOCATION = 52, OPT_NOSIGNAL = 99, OPT_TIMEOUT_MS = 155, OPT_CONNECTTIMEOUT_MS = 156,
    OPT_PROTOCOLS = 181, OPT_POSTFIELDSIZE_LARGE = 30120,
    INFO_RESPONSE_CODE = 0x200002,
    PROTO_HTTP = 1, PROTO_HTTPS = 2,
    E_OK = 0, E_WRITE_ERROR = 23, E_OPERATION_TIMEDOUT = 28,
};

typedef void CURL;
struct curl_slist;
typedef CURL *(*easy_init_fn)(void);
typedef int (*easy_setopt_fn)(CURL *, int, ...);
typedef int (*easy_perform_fn)(CURL *);
typedef int (*easy_getinfo_fn)(CURL *, int, ...);
typedef void (*easy_cleanup_fn)(CURL *);
typedef const char *(*easy_strerror_fn)(int);
typedef struct curl_slist *(*slist_append_fn)(struct curl_slist *, const char *);
typedef void (*slist_free_fn)(struct curl_slist *);
typedef int (*global_init_fn)(long);

static pthread_once_t once = PTHREAD_ONCE_INIT;
static easy_init_fn easy_init;
static easy_setopt_fn easy_setopt;
static easy_perform_fn easy_perform;
static easy_getinfo_fn easy_getinfo;
static easy_cleanup_fn easy_cleanup;
static easy_strerror_fn easy_strerror;
static slist_append_fn slist_append;
static slist_free_fn slist_free;
static char load_error[512];

static void load(void) {
    void *h = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *why = dlerror();
        snprintf(load_error, sizeof load_error, "%s", why ? why : "libcurl.so.4 did not load");
        return;
    }
    global_init_fn global_init = (global_init_fn)dlsym(h, "curl_global_init");
    easy_setopt = (easy_setopt_fn)dlsym(h, "curl_easy_setopt");
    easy_perform = (easy_perform_fn)dlsym(h, "curl_easy_perform");
    easy_getinfo = (easy_getinfo_fn)dlsym(h, "curl_easy_getinfo");
    easy_cleanup = (easy_cleanup_fn)dlsym(h, "curl_easy_cleanup");
    easy_strerror = (easy_strerror_fn)dlsym(h, "curl_easy_strerror");
    slist_append = (slist_append_fn)dlsym(h, "curl_slist_append");
    slist_free = (slist_free_fn)dlsym(h, "curl_slist_free_all");
    easy_init_fn init = (easy_init_fn)dlsym(h, "curl_easy_init");
    if (!global_init || !easy_setopt || !easy_perform || !easy_getinfo || !easy_cleanup || !easy_strerror ||
        !slist_append || !slist_free || !init) {
        snprintf(load_error, sizeof load_error, "libcurl.so.4 lacks a function pbcurl needs");
        return;
    }
    // Global set-up once, here, under pthread_once: curl_easy_init would do it unguarded.
    if (global_init(3 /* CURL_GLOBAL_ALL */) != E_OK) {
        snprintf(load_error, sizeof load_error, "curl_global_init failed");
        return;
    }
    easy_init = init;
}

int pbc_available(void) {
    pthread_once(&once, load);
    return easy_init != NULL;
}

const char *pbc_load_error(void) {
    pthread_once(&once, load);
    return load_error;
}

typedef struct buffer {
    char *data;
    size_t length, capacity, limit;
    int *too_large;
} buffer;

static int append(buffer *b, const char *p, size_t n) {
    if (b->length + n > b->limit) {
        *b->too_large = 1;
        return 0;
    }
    if (b->length + n + 1 > b->capacity) {
        size_t capacity = b->capacity ? b->capacity : 4096;
        while (capacity < b->length + n + 1) capacity *= 2;
        char *grown = realloc(b->data, capacity);
        if (!grown) return 0;
        b->data = grown;
        b->capacity = capacity;
    }
    memcpy(b->data + b->length, p, n);
    b->length += n;
    b->data[b->length] = 0;
    return 1;
}

static size_t write_cb(char *p, size_t size, size_t count, void *user) {
    size_t n = size * count;
    return append((buffer *)user, p, n) ? n : 0;
}

int pbc_post(const char *url, const char *const *headers, int header_count, const void *body, size_t body_length,
             long timeout_ms, size_t max_bytes, int no_proxy, pbc_response *out) {
    memset(out, 0, sizeof *out);
    if (!pbc_available()) {
        snprintf(out->error, sizeof out->error, "libcurl is unavailable: %s", load_error);
        return -1;
    }
    CURL *curl = easy_init();
    if (!curl) {
        snprintf(out->error, sizeof out->error, "curl_easy_init failed");
        return -1;
    }
    struct curl_slist *list = NULL;
    for (int i = 0; i < header_count; i++) list = slist_append(list, headers[i]);
    buffer head = {0, 0, 0, 65536, &out->too_large};
    buffer content = {0, 0, 0, max_bytes, &out->too_large};
    easy_setopt(curl, OPT_URL, url);
    easy_setopt(curl, OPT_PROTOCOLS, (long)(PROTO_HTTP | PROTO_HTTPS));
    easy_setopt(curl, OPT_FOLLOWLOCATION, 0L);
    if (no_proxy) easy_setopt(curl, OPT_NOPROXY, "*");
    easy_setopt(curl, OPT_NOSIGNAL, 1L);
    easy_setopt(curl, OPT_TIMEOUT_MS, timeout_ms < 1 ? 1L : timeout_ms);
    easy_setopt(curl, OPT_CONNECTTIMEOUT_MS, timeout_ms < 1 ? 1L : timeout_ms);
    easy_setopt(curl, OPT_POST, 1L);
    easy_setopt(curl, OPT_POSTFIELDS, body);
    easy_setopt(curl, OPT_POSTFIELDSIZE_LARGE, (long long)body_length);
    easy_setopt(curl, OPT_HTTPHEADER, list);
    easy_setopt(curl, OPT_WRITEFUNCTION, write_cb);
    easy_setopt(curl, OPT_WRITEDATA, &content);
    easy_setopt(curl, OPT_HEADERFUNCTION, write_cb);
    easy_setopt(curl, OPT_HEADERDATA, &head);
    int code = easy_perform(curl);
    long status = 0;
    easy_getinfo(curl, INFO_RESPONSE_CODE, &status);
    easy_cleanup(curl);
    slist_free(list);
    out->status = status;
    out->head = head.data;
    out->head_length = head.length;
    out->body = content.data;
    out->body_length = content.length;
    if (code == E_OK) return 0;
    out->timed_out = code == E_OPERATION_TIMEDOUT;
    if (code == E_WRITE_ERROR && out->too_large)
        snprintf(out->error, sizeof out->error, "the response passed %zu bytes", max_bytes);
    else
        snprintf(out->error, sizeof out->error, "%s (curl error %d)", easy_strerror(code), code);
    return -1;
}

void pbc_free(pbc_response *response) {
    free(response->head);
    free(response->body);
    response->head = response->body = NULL;
}
