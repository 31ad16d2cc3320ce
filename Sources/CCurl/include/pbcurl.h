// One HTTP(S) POST through the system libcurl (libcurl.so.4), loaded at run time by the process
// that needs TLS: pb-answer with an https:// endpoint. FoundationNetworking would link libcurl
// and its thirty libraries into pb-answer, pb-pack and pb-verify, about 9 ms of every start, for
// a request most runs never make (local endpoints are http:// and go over a plain socket).
#ifndef PBCURL_H
#define PBCURL_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pbc_response {
    long status;           // the HTTP status of the last response (after none followed: no redirects)
    char *head;            // the header lines as received, "\r\n" separated, NUL-terminated
    size_t head_length;
    char *body;            // the body, NUL-terminated (not counted in body_length)
    size_t body_length;
    int timed_out;         // 1 when the deadline passed
    int too_large;         // 1 when the response passed max_bytes
    char error[256];       // why the request failed, "" when it did not
} pbc_response;

/// 1 when libcurl loaded (the first call loads it); pbc_load_error() says why not.
int pbc_available(void);
const char *pbc_load_error(void);

/// POSTs body to url with the given header lines ("Name: value"), within timeout_ms for the whole
/// request, over http or https only, following no redirects. With no_proxy, no proxy from the
/// environment is used (a loopback endpoint must never be routed off the machine); without it,
/// libcurl's own rules apply (http_proxy, https_proxy, no_proxy). Returns 0 when a response was
/// read (any status), -1 otherwise (error filled). pbc_free releases what the response holds.
int pbc_post(const char *url, const char *const *headers, int header_count, const void *body, size_t body_length,
             long timeout_ms, size_t max_bytes, int no_proxy, pbc_response *out);
void pbc_free(pbc_response *response);

#ifdef __cplusplus
}
#endif

#endif
