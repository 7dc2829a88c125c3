// glossa-apertium-tagger: Debian's `apertium-tagger -g` for HMM models, run through libapertium
// (apertium-dev), with one difference: every NUL-flushed request starts from the model as it was
// loaded, so a warm pipeline tags each request exactly as a fresh `apertium-tagger` would.
//
// Why it exists: apertium-tagger 3.8.3 (and upstream master) changes its model while it tags.
// When a word's ambiguity class is not in the model, tagger_utils::find_similar_ambiguity_class
// binds `set<TTag> &ret = td.getOpenClass()` and then assigns `ret = ambg_class`, which
// overwrites the model's open class (the classes given to unknown words) with a smaller one. In
// a process that serves request after request (`-z`), every later unknown word is then tagged
// with that smaller class: on FLORES-200 dev, en→es `say<vblex><past>` became `<pp>` on a second
// pass, and es→fr differed on 37 of 997 lines. A NUL resets the Viterbi state (HMM::tagger sets
// `tags = {eos}`, `alpha[0][eos] = 1`) but not the open class. The open class is the only model
// state that tagging writes (the ambiguity-class collection is only read: a class not found is
// replaced by one that is in it), so restoring it after each NUL restores the whole model.
//
// How: HMM::tagger reads words from a MorphoStream and calls `setEndOfFile(false)` right after it
// has answered a NUL-terminated request. The stream below delegates everything to the stock
// FileMorphoStream and, at that call, puts the open class back.
//
// Anything other than HMM tagging (-x perceptron, -u unigram, -w sliding window, training, a
// perceptron model given to -g, unknown options) is handed to /usr/bin/apertium-tagger unchanged:
// only HMM::tagger calls find_similar_ambiguity_class, and the perceptron tagger of eng-cat gave
// the same output on a first and a second pass over FLORES-200 dev (DeterminismTests covers it).
//
// Usage: as apertium-tagger: glossa-apertium-tagger [-z] [-p] [-m] [-f] [-e] [-d] -g MODEL.prob

#include <apertium/file_morpho_stream.h>
#include <apertium/hmm.h>
#include <apertium/perceptron_tagger.h>
#include <apertium/tagger_flags.h>
#include <apertium/tagger_word.h>
#include <lttoolbox/exception.h>
#include <lttoolbox/lt_locale.h>

#include <cstdio>
#include <fstream>
#include <set>
#include <unistd.h>

namespace {

/// The stock morphological stream over stdin, which gives the model its open class back at the
/// end of every request.
class ResettingMorphoStream : public MorphoStream {
  FileMorphoStream inner;
  TaggerData &model;
  /// The open class as loaded from the model file.
  const std::set<TTag> loadedOpenClass;

public:
  ResettingMorphoStream(bool debug, TaggerData &taggerData)
      : inner(nullptr, debug, &taggerData), model(taggerData), loadedOpenClass(taggerData.getOpenClass()) {}

  TaggerWord *get_next_word() override { return inner.get_next_word(); }
  void setNullFlush(bool nullFlush) override { inner.setNullFlush(nullFlush); }
  bool getEndOfFile() override { return inner.getEndOfFile(); }
  void rewind() override { inner.rewind(); }

  /// HMM::tagger calls this with false once a request (up to a NUL, or the input) is answered:
  /// the next request must see the model as loaded.
  void setEndOfFile(bool endOfFile) override {
    inner.setEndOfFile(endOfFile);
    if (!endOfFile) model.setOpenClass(loadedOpenClass);
  }
};

const char *const stockTagger = "/usr/bin/apertium-tagger";

[[noreturn]] void runStockTagger(char **argv) {
  argv[0] = const_cast<char *>(stockTagger);
  execv(stockTagger, argv);
  perror("glossa-apertium-tagger: cannot run /usr/bin/apertium-tagger");
  _exit(127);
}

/// Whether `path` holds a perceptron model: apertium-tagger -g tries that format first too.
bool isPerceptronModel(const char *path, Apertium::TaggerFlags &flags) {
  std::ifstream serialised(path, std::ios::binary);
  Apertium::PerceptronTagger perceptron(flags);
  try {
    perceptron.deserialise(serialised);
    return true;
  } catch (DeserialisationException const &) {
    return false;
  }
}

} // namespace

int main(int argc, char **argv) {
  LtLocale::tryToSetLocale();
  Apertium::TaggerFlags flags;
  bool tag = false, other = false;
  opterr = 0; // options this program does not handle go to apertium-tagger, which reports them
  int option;
  // The option letters of apertium-tagger 3.8.3 (apertium/tagger.cc).
  while ((option = getopt(argc, argv, "bdfegmpr:s:t:u:wxzh")) != -1) {
    switch (option) {
    case 'b': flags.setSentSeg(true); break;
    case 'd': flags.setDebug(true); break;
    case 'e': flags.setSkipErrors(true); break;
    case 'f': flags.setFirst(true); break;
    case 'm': flags.setMark(true); break;
    case 'p': flags.setShowSuperficial(true); break;
    case 'z': flags.setNullFlush(true); break;
    case 'g': tag = true; break;
    default: other = true; break;
    }
  }
  // Only `-g MODEL` reading stdin and writing stdout is handled here.
  if (!tag || other || argc - optind != 1) runStockTagger(argv);
  const char *modelPath = argv[optind];
  if (isPerceptronModel(modelPath, flags)) runStockTagger(argv);

  // As apertium_tagger::g_FILE_Tagger does.
  HMM hmm(flags);
  FILE *modelFile = fopen(modelPath, "rb");
  if (!modelFile) {
    perror(modelPath);
    return 1;
  }
  hmm.deserialise(modelFile);
  fclose(modelFile);
  TaggerWord::setArrayTags(hmm.getArrayTags());
  TaggerWord::generate_marks = flags.getMark();
  UFILE *output = u_finit(stdout, nullptr, nullptr);
  ResettingMorphoStream input(flags.getDebug(), hmm.get_tagger_data());
  hmm.tagger(input, output);
  u_fclose(output);
  return 0;
}
