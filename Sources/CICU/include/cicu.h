#pragma once
// ICU for PocketBrains, behind plain C types.
//
// Why a C target and not a header-only shim: Foundation on Linux carries its own ICU
// (_FoundationICU) whose headers define the same enums (UErrorCode, ...) with other members, so a
// Swift module that imports Foundation cannot also see the system's <unicode/*.h>. The ICU calls
// therefore live in cicu.c, and this header shows only int32_t, uint16_t and opaque pointers.
#include <stdint.h>

/// Opens an English sentence break iterator; NULL on failure (the error name in *error).
void *pb_icu_sentence_open(const char **error);
void pb_icu_break_close(void *iterator);

/// Sentence boundaries of UTF-8 text as byte offsets (the first is 0, the last is len).
/// Returns how many there are (may exceed cap: call again with a larger buffer), or -1 on error.
int32_t pb_icu_sentence_breaks(void *iterator, const char *utf8, int64_t len, int32_t *out, int32_t cap);

/// ICU's UCharCategory values, under names that do not clash with Foundation's ICU.
enum {
    PB_U_UNASSIGNED = 0, PB_U_UPPERCASE_LETTER = 1, PB_U_LOWERCASE_LETTER = 2, PB_U_TITLECASE_LETTER = 3,
    PB_U_MODIFIER_LETTER = 4, PB_U_OTHER_LETTER = 5, PB_U_NON_SPACING_MARK = 6, PB_U_ENCLOSING_MARK = 7,
    PB_U_COMBINING_SPACING_MARK = 8, PB_U_DECIMAL_DIGIT_NUMBER = 9, PB_U_LETTER_NUMBER = 10, PB_U_OTHER_NUMBER = 11,
    PB_U_SPACE_SEPARATOR = 12, PB_U_LINE_SEPARATOR = 13, PB_U_PARAGRAPH_SEPARATOR = 14, PB_U_CONTROL_CHAR = 15,
    PB_U_FORMAT_CHAR = 16, PB_U_PRIVATE_USE_CHAR = 17, PB_U_SURROGATE = 18, PB_U_DASH_PUNCTUATION = 19,
    PB_U_START_PUNCTUATION = 20, PB_U_END_PUNCTUATION = 21, PB_U_CONNECTOR_PUNCTUATION = 22,
    PB_U_OTHER_PUNCTUATION = 23, PB_U_MATH_SYMBOL = 24, PB_U_CURRENCY_SYMBOL = 25, PB_U_MODIFIER_SYMBOL = 26,
    PB_U_OTHER_SYMBOL = 27, PB_U_INITIAL_PUNCTUATION = 28, PB_U_FINAL_PUNCTUATION = 29
};

/// The Unicode general category of a code point (one of the PB_U_ values above).
int32_t pb_icu_char_type(int32_t codepoint);

/// NFD / NFKC-casefold of UTF-16 text; returns the output length (may exceed cap), -1 on error.
int32_t pb_icu_nfd(const uint16_t *src, int32_t len, uint16_t *dst, int32_t cap);
int32_t pb_icu_nfkc_casefold(const uint16_t *src, int32_t len, uint16_t *dst, int32_t cap);

/// The IANA zone ID (ASCII, NUL-terminated in out) for a Windows time zone name such as
/// "W. Europe Standard Time", as Outlook and Exchange write TZID; returns its length, 0 if unknown.
int32_t pb_icu_zone_for_windows_name(const char *windows, char *out, int32_t cap);
