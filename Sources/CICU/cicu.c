#include "cicu.h"
#include <unicode/ubrk.h>
#include <unicode/utext.h>
#include <unicode/unorm2.h>
#include <unicode/uchar.h>
#include <unicode/ucal.h>

void *pb_icu_sentence_open(const char **error) {
    UErrorCode status = U_ZERO_ERROR;
    UBreakIterator *bi = ubrk_open(UBRK_SENTENCE, "en_US@ss=standard", NULL, 0, &status);
    if (U_FAILURE(status)) {
        if (error) *error = u_errorName(status);
        return NULL;
    }
    return bi;
}

void pb_icu_break_close(void *iterator) {
    if (iterator) ubrk_close((UBreakIterator *)iterator);
}

int32_t pb_icu_sentence_breaks(void *iterator, const char *utf8, int64_t len, int32_t *out, int32_t cap) {
    UErrorCode status = U_ZERO_ERROR;
    // UText over UTF-8 makes the iterator report native (byte) offsets: no UTF-16 mapping needed.
    UText *text = utext_openUTF8(NULL, utf8, len, &status);
    if (U_FAILURE(status)) return -1;
    UBreakIterator *bi = (UBreakIterator *)iterator;
    ubrk_setUText(bi, text, &status);
    if (U_FAILURE(status)) { utext_close(text); return -1; }
    int32_t n = 0;
    for (int32_t p = ubrk_first(bi); p != UBRK_DONE; p = ubrk_next(bi)) {
        if (n < cap) out[n] = p;
        n++;
    }
    utext_close(text);
    return n;
}

int32_t pb_icu_char_type(int32_t codepoint) {
    return (int32_t)u_charType((UChar32)codepoint);
}

static int32_t normalize(const UNormalizer2 *(*get)(UErrorCode *), const uint16_t *src, int32_t len, uint16_t *dst, int32_t cap) {
    UErrorCode status = U_ZERO_ERROR;
    const UNormalizer2 *n = get(&status);
    if (U_FAILURE(status)) return -1;
    int32_t out = unorm2_normalize(n, (const UChar *)src, len, (UChar *)dst, cap, &status);
    if (status == U_BUFFER_OVERFLOW_ERROR) return out;
    if (U_FAILURE(status)) return -1;
    return out;
}

int32_t pb_icu_nfd(const uint16_t *src, int32_t len, uint16_t *dst, int32_t cap) {
    return normalize(unorm2_getNFDInstance, src, len, dst, cap);
}

int32_t pb_icu_nfkc_casefold(const uint16_t *src, int32_t len, uint16_t *dst, int32_t cap) {
    return normalize(unorm2_getNFKCCasefoldInstance, src, len, dst, cap);
}

int32_t pb_icu_zone_for_windows_name(const char *windows, char *out, int32_t cap) {
    UChar name[128];
    int32_t n = 0;
    for (; windows[n] != 0; n++) {
        if (n >= 127 || (unsigned char)windows[n] >= 128) return 0; // Windows zone names are ASCII
        name[n] = (UChar)windows[n];
    }
    UChar id[128];
    UErrorCode status = U_ZERO_ERROR;
    int32_t len = ucal_getTimeZoneIDForWindowsID(name, n, NULL, id, 128, &status);
    if (U_FAILURE(status) || len <= 0 || len >= cap || len >= 128) return 0;
    for (int32_t i = 0; i < len; i++) out[i] = (char)id[i];
    out[len] = 0;
    return len;
}
