// An experiment, not part of Glossa: Apertium's stages run inside one process through its
// libraries (liblttoolbox, libapertium, libapertium-lex-tools from Debian's -dev packages) instead
// of as a pipeline of processes, to measure whether that would translate faster. It runs the
// stages a mode's `apertium-wblank-mode -z` script names (lt-proc, apertium-tagger with an HMM
// model, apertium-pretransfer, apertium-transfer, apertium-interchunk, apertium-postchunk,
// lrx-proc; the word-bound-blank stages are passed through, as the FLORES text has none) on
// FLORES-200 sentences, one frame each, two ways, and prints the CPU time per sentence:
//
// - each stage called once per frame (what serving one request at a time in-process would do);
// - each stage called once over all frames, the library's own null-flush loop going from frame
//   to frame (what a pipeline process does with a stream of frames).
//
// Both ways must give the same bytes. Compare with `bench/apertium_frames.py` (the same stages as
// processes, their CPU time summed), run in turn with this on a quiet machine: the machine's
// speed drifts by 10-20 % within minutes, so runs minutes apart do not compare. On the 2-core AMD
// EPYC (Zen 5) development machine, 2026-12-04 21:57 UTC, eng-spa, three alternations: in one
// process 2.12-2.29 ms per sentence frame by frame and 1.36-1.39 over all frames; as processes
// 2.20-2.85 one frame at a time and 1.46-1.65 streamed (one stream of every sentence 1.48-1.68).
// The stages in one process cost about a tenth less CPU: their own work is the cost, not the
// pipes between them, and one process gives up the stages' running side by side.
//
// Build and run (after `make deps-test`, which installs apertium-dev and apertium-lex-tools-dev):
//   apt-get install apertium-lex-tools-dev
//   g++ -O2 -std=c++17 -I/usr/include/libxml2 bench/apertium-inprocess/apertium_inprocess.cpp -o .build/apertium-inprocess -lapertium -llttoolbox -lapertium-lex-tools -licuio -licuuc -lxml2
//   .build/apertium-inprocess eng-spa ../shared/data/flores200-dev/eng_Latn.dev

#include <apertium/file_morpho_stream.h>
#include <apertium/hmm.h>
#include <apertium/interchunk.h>
#include <apertium/postchunk.h>
#include <apertium/pretransfer.h>
#include <apertium/tagger_flags.h>
#include <apertium/tagger_word.h>
#include <apertium/transfer.h>
#include <apertium-lex-tools/lrx_processor.h>
#include <lttoolbox/fst_processor.h>
#include <lttoolbox/input_file.h>
#include <lttoolbox/lt_locale.h>
#include <unicode/ustdio.h>

#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <ctime>
#include <fstream>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

struct Stage {
  virtual ~Stage() = default;
  virtual void run(InputFile &in, UFILE *out) = 0;
  virtual bool needsPath() const { return false; }
  virtual void runPath(const char *, UFILE *) {}
};

struct LtProc : Stage {
  FSTProcessor f; char cmd = 'a'; GenerationMode mode = gm_unknown;
  LtProc(std::vector<std::string> const &args) {
    std::string file;
    for (auto &a : args) {
      if (a == "-z") continue;
      else if (a == "-w") f.setDictionaryCaseMode(true);
      else if (a == "-b") cmd = 'b';
      else if (a == "-g") cmd = 'g';
      else if (a == "-n") { cmd = 'g'; mode = gm_clean; }
      else if (a == "-p") cmd = 'p';
      else if (a == "-x") cmd = 't';
      else if (a == "-e") cmd = 'e';
      else if (a == "-c") f.setCaseSensitiveMode(true);
      else if (a[0] == '-') throw std::runtime_error("lt-proc option " + a);
      else file = a;
    }
    FILE *in = fopen(file.c_str(), "rb");
    if (!in) throw std::runtime_error("cannot open " + file);
    f.load(in); fclose(in);
    switch (cmd) {
      case 'g': f.initGeneration(); break;
      case 'p': f.initPostgeneration(); break;
      case 't': f.initPostgeneration(); break;
      case 'b': f.initBiltrans(); break;
      case 'e': f.initDecomposition(); break;
      default: f.initAnalysis();
    }
    if (!f.valid()) throw std::runtime_error("invalid transducer " + file);
  }
  void run(InputFile &in, UFILE *out) override {
    f.setNullFlush(true);
    switch (cmd) {
      case 'g': f.generation(in, out, mode); break;
      case 'p': f.postgeneration(in, out); break;
      case 't': f.intergeneration(in, out); break;
      case 'b': f.bilingual(in, out, mode); break;
      default: f.analysis(in, out);
    }
  }
};

std::mutex taggerLock;
class Resetting : public MorphoStream {
  FileMorphoStream inner; TaggerData &model; const std::set<TTag> &loaded;
public:
  Resetting(const char *path, TaggerData &td, const std::set<TTag> &oc) : inner(path, false, &td), model(td), loaded(oc) {}
  TaggerWord *get_next_word() override { return inner.get_next_word(); }
  void setNullFlush(bool nf) override { inner.setNullFlush(nf); }
  bool getEndOfFile() override { return inner.getEndOfFile(); }
  void rewind() override { inner.rewind(); }
  void setEndOfFile(bool e) override { inner.setEndOfFile(e); if (!e) model.setOpenClass(loaded); }
};
struct Tagger : Stage {
  Apertium::TaggerFlags flags; std::unique_ptr<HMM> hmm; std::set<TTag> openClass;
  Tagger(std::vector<std::string> const &args) {
    std::string file;
    for (auto &a : args) {
      if (a == "-z") flags.setNullFlush(true);
      else if (a == "-g") {}
      else if (a == "-m") flags.setMark(true);
      else if (a[0] == '-') throw std::runtime_error("tagger option " + a);
      else file = a;
    }
    hmm.reset(new HMM(flags));
    FILE *m = fopen(file.c_str(), "rb");
    hmm->deserialise(m); fclose(m);
    openClass = hmm->get_tagger_data().getOpenClass();
  }
  bool needsPath() const override { return true; }
  void run(InputFile &, UFILE *) override {}
  void runPath(const char *path, UFILE *out) override {
    std::lock_guard<std::mutex> g(taggerLock);
    TaggerWord::setArrayTags(hmm->getArrayTags());
    TaggerWord::generate_marks = flags.getMark();
    Resetting ms(path, hmm->get_tagger_data(), openClass);
    hmm->tagger(ms, out);
    hmm->get_tagger_data().setOpenClass(openClass);
  }
};

struct Pretransfer : Stage {
  bool sf = false, cs = false;
  Pretransfer(std::vector<std::string> const &args) {
    for (auto &a : args) { if (a == "-z") {} else if (a == "-n") sf = true; else if (a == "-e") cs = true; else throw std::runtime_error("pretransfer " + a); }
  }
  void run(InputFile &in, UFILE *out) override { processStream(in, out, true, sf, cs); }
};

struct TransferStage : Stage {
  Transfer t;
  TransferStage(std::vector<std::string> const &args) {
    std::vector<std::string> files; bool useBil = true, pre = false;
    for (auto &a : args) {
      if (a == "-z") {} else if (a == "-b") { pre = true; useBil = false; } else if (a == "-n") useBil = false;
      else if (a[0] == '-') throw std::runtime_error("transfer " + a); else files.push_back(a);
    }
    t.setPreBilingual(pre); t.setUseBilingual(useBil);
    if (files.size() == 3 && useBil && !pre) t.read(files[0], files[1], files[2]);
    else if (files.size() == 2 && (!useBil || pre)) t.read(files[0], files[1]);
    else throw std::runtime_error("transfer files");
  }
  void run(InputFile &in, UFILE *out) override { t.setNullFlush(true); t.transfer(in, out); }
};
/// apertium-interchunk or apertium-postchunk: its rules and their compiled file, -z only.
template <class Rules, void (Rules::*Process)(InputFile &, UFILE *)>
struct ChunkStage : Stage {
  Rules rules;
  ChunkStage(std::vector<std::string> const &args, std::string const &name) {
    std::vector<std::string> files;
    for (auto &a : args) { if (a == "-z") {} else if (a[0] == '-') throw std::runtime_error(name + " " + a); else files.push_back(a); }
    if (files.size() != 2) throw std::runtime_error(name + " files");
    rules.read(files[0].c_str(), files[1].c_str());
  }
  void run(InputFile &in, UFILE *out) override { rules.setNullFlush(true); (rules.*Process)(in, out); }
};
struct Lrx : Stage {
  LRXProcessor l;
  Lrx(std::vector<std::string> const &args) {
    std::string file;
    for (auto &a : args) { if (a == "-z" || a == "-m") {} else if (a[0] == '-') throw std::runtime_error("lrx " + a); else file = a; }
    FILE *in = fopen(file.c_str(), "rb"); l.load(in); fclose(in); l.init();
  }
  void run(InputFile &in, UFILE *out) override { l.setNullFlush(true); l.process(in, out); }
};
struct Identity : Stage {
  void run(InputFile &in, UFILE *out) override { UChar32 c; while ((c = in.get()) != U_EOF) u_fputc(c, out); }
};

/// The words of one stage of the script, quotes removed.
std::vector<std::string> words(std::string const &s) {
  std::vector<std::string> out;
  std::string cur;
  bool quoted = false, any = false;
  for (char c : s) {
    if (c == '\'') { quoted = !quoted; any = true; continue; }
    if (c == ' ' && !quoted) { if (any) out.push_back(cur); cur.clear(); any = false; continue; }
    cur += c;
    any = true;
  }
  if (any) out.push_back(cur);
  return out;
}

/// The stages of a script, and frames run through them.
struct Pipeline {
  std::vector<std::unique_ptr<Stage>> stages;
  int memfd = memfd_create("frames", 0);

  explicit Pipeline(std::string const &command) {
    size_t start = 0;
    while (true) {
      size_t bar = command.find(" | ", start);
      auto w = words(command.substr(start, bar == std::string::npos ? std::string::npos : bar - start));
      std::string program = w.front();
      std::vector<std::string> args(w.begin() + 1, w.end());
      if (program == "lt-proc") stages.emplace_back(new LtProc(args));
      else if (program == "apertium-tagger") stages.emplace_back(new Tagger(args));
      else if (program == "apertium-pretransfer") stages.emplace_back(new Pretransfer(args));
      else if (program == "apertium-transfer") stages.emplace_back(new TransferStage(args));
      else if (program == "apertium-interchunk") stages.emplace_back(new ChunkStage<Interchunk, &Interchunk::interchunk>(args, program));
      else if (program == "apertium-postchunk") stages.emplace_back(new ChunkStage<Postchunk, &Postchunk::postchunk>(args, program));
      else if (program == "lrx-proc") stages.emplace_back(new Lrx(args));
      else if (program == "apertium-wblank-attach" || program == "apertium-wblank-detach") stages.emplace_back(new Identity());
      else throw std::runtime_error("not supported here: " + program);
      if (bar == std::string::npos) break;
      start = bar + 3;
    }
  }

  /// `data` (frames, each ending in a NUL) through one stage; the library loops over the frames.
  std::string run(Stage &stage, std::string const &data) {
    char *buffer = nullptr;
    size_t length = 0;
    FILE *memory = open_memstream(&buffer, &length);
    UFILE *out = u_finit(memory, nullptr, "UTF-8");
    if (stage.needsPath()) {
      if (ftruncate(memfd, 0) != 0 || pwrite(memfd, data.data(), data.size(), 0) != ssize_t(data.size())) throw std::runtime_error("memfd");
      char path[64];
      snprintf(path, sizeof path, "/proc/self/fd/%d", memfd);
      stage.runPath(path, out);
    } else {
      InputFile input;
      input.wrap(fmemopen(const_cast<char *>(data.data()), data.size(), "r"));
      stage.run(input, out);
    }
    u_fclose(out);
    fclose(memory);
    std::string result(buffer, length);
    free(buffer);
    return result;
  }

  /// The first `count` NUL-terminated frames of `output`: at the end of its input a stage's
  /// null-flush loop may answer one more, empty frame, which a pipeline process never sees.
  static std::string firstFrames(std::string const &output, size_t count) {
    size_t end = 0;
    for (size_t k = 0; k < count; ++k) {
      size_t nul = output.find('\0', end);
      if (nul == std::string::npos) throw std::runtime_error("a stage lost the framing");
      end = nul + 1;
    }
    return output.substr(0, end);
  }

  std::string translate(std::vector<std::string> const &frames) {
    std::string data;
    for (auto const &f : frames) data += f + std::string(1, '\0');
    for (auto &stage : stages) data = firstFrames(run(*stage, data), frames.size());
    return data;
  }
};

double cpuSeconds() { return double(clock()) / CLOCKS_PER_SEC; }

} // namespace

int main(int argc, char **argv) {
  if (argc != 3) { fprintf(stderr, "usage: %s MODE SENTENCES_FILE\n", argv[0]); return 2; }
  LtLocale::tryToSetLocale();
  std::string command;
  {
    std::string call = std::string("apertium-wblank-mode -z /usr/share/apertium/modes/") + argv[1] + ".mode";
    FILE *script = popen(call.c_str(), "r");
    char chunk[4096];
    size_t n;
    while (script && (n = fread(chunk, 1, sizeof chunk, script)) > 0) command.append(chunk, n);
    if (!script || pclose(script) != 0) { fprintf(stderr, "apertium-wblank-mode failed\n"); return 1; }
  }
  while (!command.empty() && (command.back() == '\n' || command.back() == ' ')) command.pop_back();
  // As Glossa runs a mode: $1 (the generator's marking) -n, $2 (the tagger's option) empty.
  for (size_t p; (p = command.find("$1")) != std::string::npos;) command.replace(p, 2, "-n");
  for (size_t p; (p = command.find("$2")) != std::string::npos;) command.replace(p, 2, "");
  Pipeline pipeline(command);

  std::ifstream in(argv[2]);
  std::vector<std::string> frames;
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    std::string frame;
    for (char c : line) {
      if (std::string("[]^$@/<>{}\\*#").find(c) != std::string::npos) frame += '\\';
      frame += c;
    }
    frames.push_back(frame + ".[]");
  }
  pipeline.translate({frames.front()});  // warm-up

  double t0 = cpuSeconds();
  std::string oneByOne;
  for (auto const &f : frames) oneByOne += pipeline.translate({f});
  double t1 = cpuSeconds();
  std::string allAtOnce = pipeline.translate(frames);
  double t2 = cpuSeconds();
  if (oneByOne != allAtOnce) { fprintf(stderr, "the two ways answered differently\n"); return 1; }
  printf("%s, %zu sentences, in one process (CPU ms per sentence):\n", argv[1], frames.size());
  printf("  each stage called once per frame   %.2f\n", 1000 * (t1 - t0) / frames.size());
  printf("  each stage called over all frames  %.2f\n", 1000 * (t2 - t1) / frames.size());
  return 0;
}
