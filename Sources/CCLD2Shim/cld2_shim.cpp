// The C ABI over CLD2 declared in include/cld2_shim.h.
#include "cld2_shim.h"

#include <climits>
#include <cstdio>   // compact_lang_det.h uses FILE without including <cstdio>
#include <cstring>
#include <vector>

#include <cld2/public/compact_lang_det.h>
#include <cld2/public/encodings.h>

namespace {

void copy_code(char (&dest)[GLOSSA_CLD2_CODE_CAPACITY], CLD2::Language language) {
    const char *code = CLD2::LanguageCode(language);
    // CLD2 returns a static string for every Language value; guard anyway so a future table
    // change cannot overflow the fixed buffer or leave it unterminated.
    if (code == nullptr) code = "un";
    std::strncpy(dest, code, GLOSSA_CLD2_CODE_CAPACITY - 1);
    dest[GLOSSA_CLD2_CODE_CAPACITY - 1] = '\0';
}

}  // namespace

extern "C" int glossa_cld2_detect(const char *text, size_t length, const char *hint,
                                  int best_effort, glossa_cld2_result *out) {
    if (out == nullptr || (text == nullptr && length != 0)) return -1;
    std::memset(out, 0, sizeof *out);
    for (auto &code : out->code) copy_code(code, CLD2::UNKNOWN_LANGUAGE);
    if (length == 0) return 0;

    // CLD2 measures buffers in int; a longer buffer is scored on its first INT_MAX bytes.
    // Cutting there may split a UTF-8 sequence, which CheckUTF8 then reports as the valid prefix.
    const int scored = length > static_cast<size_t>(INT_MAX) ? INT_MAX : static_cast<int>(length);

    CLD2::CLDHints hints = {nullptr, nullptr, CLD2::UNKNOWN_ENCODING, CLD2::UNKNOWN_LANGUAGE};
    if (hint != nullptr && hint[0] != '\0') {
        hints.language_hint = CLD2::GetLanguageFromName(hint);
        // content_language_hint also boosts the closely related languages CLD2 groups with it.
        hints.content_language_hint = hint;
    }

    // CLD2 returns early on invalid UTF-8 without writing these: start them at "unknown".
    CLD2::Language language3[3] = {CLD2::UNKNOWN_LANGUAGE, CLD2::UNKNOWN_LANGUAGE,
                                   CLD2::UNKNOWN_LANGUAGE};
    int percent3[3] = {0, 0, 0};
    double normalized3[3] = {0, 0, 0};
    int text_bytes = 0;
    bool reliable = false;
    int valid_prefix = 0;
    // CLD2 reads past the end of its input: ScriptScanner::GetOneScriptSpan looks at the
    // script of the byte after the last letter (GetUTF8LetterScriptNum; valgrind: "invalid
    // read of size 1, 0 bytes after a block"). Its callers in Chrome pass NUL-terminated text,
    // ours need not, and whatever follows the buffer then decides the answer ("copy은" is
    // English at 88 % with a space after it, at 45 % with Hangul after it): the same text
    // could get different answers. So CLD2 always reads a copy followed by NUL bytes, one
    // more than the longest UTF-8 sequence it could start reading there.
    std::vector<char> padded;
    try {
        padded.assign(static_cast<size_t>(scored) + 5, '\0');
    } catch (...) {
        return -2;  // no memory for the copy: the result stays "unknown"
    }
    std::memcpy(padded.data(), text, static_cast<size_t>(scored));

    // CheckUTF8: the bytes come from callers we cannot vouch for; plain CLD2 entry points read
    // past malformed sequences. ResultChunkVector is not wanted, so nullptr.
    CLD2::ExtDetectLanguageSummaryCheckUTF8(
        padded.data(), scored, /*is_plain_text=*/true, &hints,
        best_effort ? CLD2::kCLDFlagBestEffort : 0, language3, percent3, normalized3,
        /*resultchunkvector=*/nullptr, &text_bytes, &reliable, &valid_prefix);

    const bool valid = valid_prefix >= scored;
    for (int i = 0; i < 3; ++i) {
        if (!valid) break;
        copy_code(out->code[i], language3[i]);
        out->percent[i] = percent3[i];
        out->normalized_score[i] = normalized3[i];
    }
    out->text_bytes = text_bytes;
    out->is_reliable = valid && reliable ? 1 : 0;
    out->valid_prefix_bytes = static_cast<size_t>(valid_prefix);
    return valid ? 0 : 1;
}

extern "C" const char *glossa_cld2_version(void) { return CLD2::DetectLanguageVersion(); }

extern "C" const char *glossa_cld2_language_code(int index) {
    if (index < 0 || index >= CLD2::NUM_LANGUAGES) return nullptr;
    return CLD2::LanguageCode(static_cast<CLD2::Language>(index));
}
