// C shim over sentencepiece::SentencePieceProcessor. No exception may cross into Swift, so each
// entry point catches everything and reports it through `error`.
#include "spm_shim.h"

#include <sentencepiece_processor.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

struct spm_model {
    sentencepiece::SentencePieceProcessor processor;
};

static void set_error(char *error, size_t size, const std::string &message) {
    if (!error || size == 0) return;
    std::strncpy(error, message.c_str(), size - 1);
    error[size - 1] = '\0';
}

static char *copy_string(const std::string &s) {
    char *out = static_cast<char *>(std::malloc(s.size() + 1));
    if (!out) return nullptr;
    std::memcpy(out, s.data(), s.size());
    out[s.size()] = '\0';
    return out;
}

extern "C" spm_model *spm_load(const char *path, char *error, size_t error_size) {
    try {
        auto *model = new spm_model();
        const auto status = model->processor.Load(path);
        if (!status.ok()) {
            set_error(error, error_size, status.ToString());
            delete model;
            return nullptr;
        }
        return model;
    } catch (const std::exception &e) {
        set_error(error, error_size, e.what());
    } catch (...) {
        set_error(error, error_size, "unknown error");
    }
    return nullptr;
}

extern "C" void spm_free(spm_model *model) { delete model; }

extern "C" int spm_vocab_size(const spm_model *model) {
    return model ? model->processor.GetPieceSize() : 0;
}

extern "C" int spm_encode_pieces(const spm_model *model, const char *text, size_t length,
                                 spm_pieces *out, char *error, size_t error_size) {
    try {
        std::vector<std::string> pieces;
        const auto status = model->processor.Encode(std::string(text, length), &pieces);
        if (!status.ok()) {
            set_error(error, error_size, status.ToString());
            return -1;
        }
        size_t total = 0;
        for (const auto &p : pieces) total += p.size() + 1;
        out->data = static_cast<char *>(std::malloc(total > 0 ? total : 1));
        if (!out->data) {
            set_error(error, error_size, "out of memory");
            return -1;
        }
        size_t offset = 0;
        for (const auto &p : pieces) {
            std::memcpy(out->data + offset, p.data(), p.size());
            offset += p.size();
            out->data[offset++] = '\0';
        }
        out->size = total;
        out->count = pieces.size();
        return 0;
    } catch (const std::exception &e) {
        set_error(error, error_size, e.what());
    } catch (...) {
        set_error(error, error_size, "unknown error");
    }
    return -1;
}

extern "C" int spm_encode_ids(const spm_model *model, const char *text, size_t length,
                              int32_t **ids, size_t *count, char *error, size_t error_size) {
    try {
        std::vector<int> result;
        const auto status = model->processor.Encode(std::string(text, length), &result);
        if (!status.ok()) {
            set_error(error, error_size, status.ToString());
            return -1;
        }
        *ids = static_cast<int32_t *>(std::malloc(sizeof(int32_t) * (result.size() + 1)));
        if (!*ids) {
            set_error(error, error_size, "out of memory");
            return -1;
        }
        for (size_t i = 0; i < result.size(); ++i) (*ids)[i] = result[i];
        *count = result.size();
        return 0;
    } catch (const std::exception &e) {
        set_error(error, error_size, e.what());
    } catch (...) {
        set_error(error, error_size, "unknown error");
    }
    return -1;
}

// Decodes ids or pieces into a malloc'ed string for Swift; the caller catches exceptions.
template <typename Item>
static int decode(const spm_model *model, const std::vector<Item> &list, char **text, size_t *length,
                  char *error, size_t error_size) {
    std::string result;
    const auto status = model->processor.Decode(list, &result);
    if (!status.ok()) {
        set_error(error, error_size, status.ToString());
        return -1;
    }
    *text = copy_string(result);
    *length = result.size();
    return *text ? 0 : -1;
}

extern "C" int spm_decode_pieces(const spm_model *model, const char *pieces, size_t size,
                                 size_t count, char **text, size_t *length, char *error,
                                 size_t error_size) {
    try {
        std::vector<std::string> list;
        list.reserve(count);
        size_t offset = 0;
        for (size_t i = 0; i < count && offset <= size; ++i) {
            const size_t n = strnlen(pieces + offset, size - offset);
            list.emplace_back(pieces + offset, n);
            offset += n + 1;
        }
        return decode(model, list, text, length, error, error_size);
    } catch (const std::exception &e) {
        set_error(error, error_size, e.what());
    } catch (...) {
        set_error(error, error_size, "unknown error");
    }
    return -1;
}

extern "C" int spm_decode_ids(const spm_model *model, const int32_t *ids, size_t count,
                              char **text, size_t *length, char *error, size_t error_size) {
    try {
        std::vector<int> list(ids, ids + count);
        const int vocab = model->processor.GetPieceSize();
        for (int id : list) {
            if (id < 0 || id >= vocab) {
                set_error(error, error_size, "id " + std::to_string(id) + " is outside the vocabulary of " + std::to_string(vocab));
                return -1;
            }
        }
        return decode(model, list, text, length, error, error_size);
    } catch (const std::exception &e) {
        set_error(error, error_size, e.what());
    } catch (...) {
        set_error(error, error_size, "unknown error");
    }
    return -1;
}

extern "C" void spm_free_pieces(spm_pieces *pieces) {
    if (!pieces) return;
    std::free(pieces->data);
    pieces->data = nullptr;
    pieces->size = 0;
    pieces->count = 0;
}

extern "C" void spm_free_buffer(void *buffer) { std::free(buffer); }
