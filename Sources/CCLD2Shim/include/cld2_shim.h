/* A plain C view of CLD2 (Debian libcld2) for Swift.
 *
 * CLD2's own header is C++ (namespaces, std::vector), which Swift cannot import as a C module;
 * this header is plain C so that the Swift side sees two functions and one struct.
 * Thread safety: CLD2's detection functions keep no mutable global state (its README:
 * "Thread safe"), so any number of threads may call glossa_cld2_detect at once. */
#ifndef GLOSSA_CLD2_SHIM_H
#define GLOSSA_CLD2_SHIM_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Room for the longest code CLD2 returns ("zh-Hant", "xx-Klingon", "sit-NP") plus NUL. */
#define GLOSSA_CLD2_CODE_CAPACITY 16

/* The result of one detection. Codes are CLD2's own spellings ("en", "zh-Hant", "iw", "un"). */
typedef struct {
    /* The top three languages, most likely first; "un" where there is none. */
    char code[3][GLOSSA_CLD2_CODE_CAPACITY];
    /* The share (0...100) of the text's letters that each of the three languages covers. */
    int percent[3];
    /* CLD2's score relative to normal text in that language (about 1.0 for real text). */
    double normalized_score[3];
    /* The number of letter bytes CLD2 scored (it skips digits, punctuation and spaces). */
    int text_bytes;
    /* Whether CLD2 considers code[0] reliable. */
    int is_reliable;
    /* The number of leading input bytes that are valid UTF-8; less than the length means the
       input was rejected at that byte (and the result is "un", unreliable). */
    size_t valid_prefix_bytes;
} glossa_cld2_result;

/* Detects the language of `length` bytes of UTF-8 plain text at `text` (not NUL-terminated;
 * NUL bytes inside are allowed; no byte past `length` is read, and the answer depends on the
 * `length` bytes alone). `hint` is a CLD2 or ISO language code to favour, or NULL.
 * `best_effort` non-zero asks CLD2 for a guess on short text instead of "un".
 * Input longer than INT_MAX bytes is scored on its first INT_MAX bytes (CLD2 takes an int).
 * Returns 0 when the text was scored, 1 when it is not valid UTF-8 (see valid_prefix_bytes),
 * -1 when `out` is NULL or `text` is NULL with a non-zero length, -2 when there is no memory
 * for CLD2's padded copy of the text (the result is then "un"). Never throws. */
int glossa_cld2_detect(const char *text, size_t length, const char *hint, int best_effort,
                       glossa_cld2_result *out);

/* CLD2's code for its language number `index` (CLD2::Language, 0 ... count - 1), NULL past the
 * last one: the full set of codes that glossa_cld2_detect can return, for tables built once. */
const char *glossa_cld2_language_code(int index);

/* CLD2's version text ("code_version - data_build_date"), for diagnostics. */
const char *glossa_cld2_version(void);

#ifdef __cplusplus
}
#endif

#endif
