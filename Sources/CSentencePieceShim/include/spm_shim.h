// A plain C interface over SentencePiece (Debian libsentencepiece-dev), for Swift.
// Every function is safe to call with any pointer it documents; strings are UTF-8, not
// NUL-terminated unless stated. Returned buffers are owned by the caller and freed with
// spm_free_* below.
#ifndef SPM_SHIM_H
#define SPM_SHIM_H
#include <stddef.h>
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif

typedef struct spm_model spm_model;

/// A list of strings packed as NUL-separated bytes: `count` pieces, `data` holds them one after
/// another, each followed by a NUL.
typedef struct {
    char *data;
    size_t size;
    size_t count;
} spm_pieces;

/// Loads a model file. On failure returns NULL and writes a NUL-terminated message into `error`
/// (at most `error_size` bytes).
spm_model *spm_load(const char *path, char *error, size_t error_size);
/// Frees a model (NULL is allowed).
void spm_free(spm_model *model);
/// Number of pieces in the model's vocabulary.
int spm_vocab_size(const spm_model *model);

/// Encodes text into pieces. Returns 0, or -1 with a message in `error`.
int spm_encode_pieces(const spm_model *model, const char *text, size_t length, spm_pieces *out,
                      char *error, size_t error_size);
/// Encodes text into ids (`*ids` is malloc'ed, `*count` its length). Returns 0 or -1.
int spm_encode_ids(const spm_model *model, const char *text, size_t length, int32_t **ids,
                   size_t *count, char *error, size_t error_size);
/// Decodes pieces given as NUL-separated bytes (as in spm_pieces) into text (`*text` is
/// malloc'ed, NUL-terminated, `*length` excludes the NUL). Returns 0 or -1.
int spm_decode_pieces(const spm_model *model, const char *pieces, size_t size, size_t count,
                      char **text, size_t *length, char *error, size_t error_size);
/// Decodes ids into text, as spm_decode_pieces. Returns 0 or -1.
int spm_decode_ids(const spm_model *model, const int32_t *ids, size_t count, char **text,
                   size_t *length, char *error, size_t error_size);

/// Frees a pieces list filled by spm_encode_pieces.
void spm_free_pieces(spm_pieces *pieces);
/// Frees a buffer returned by this shim (ids or text).
void spm_free_buffer(void *buffer);

#ifdef __cplusplus
}
#endif
#endif
