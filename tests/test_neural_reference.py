"""Glossa's neural engine against CTranslate2 on generated random models.

tests/tools/make_models.py builds small Transformer models through CTranslate2's own spec API
(pre/post-norm, ReLU/GELU/GELU-tanh, shared/separate vocabularies, learned/sinusoidal positions,
float32/float16/int8/int16 files) plus a SentencePiece model trained with Debian's spm_train and
an .argosmodel package; tests/tools/ct2_reference.py runs CTranslate2 on 50 FLORES-200 sentences
per variant for greedy and beam 4 (with and without the n-gram guard and a length penalty);
glossa-neural-check (a Swift executable over the NeuralEngine library) decodes the same inputs.

Tolerances: float models must give identical tokens for every input and scores within 1e-4
(float32 accumulation-order noise is ~1e-5). int8 models run a real int8 GEMM on both sides;
see test_int8_variants for what is asserted there.
"""
import json
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOOLS = os.path.join(ROOT, "tests", "tools")
OUT = os.path.join(os.environ.get("TEST_OUTPUT", os.path.join(ROOT, "test-output")), "neural")
FLOAT_SCORE_TOLERANCE = 1e-4
INT8_SCORE_TOLERANCE = 0.1
INT8_MIN_TOKEN_AGREEMENT = 0.90
# Where CTranslate2 runs its AVX2 kernels with oneDNN GEMMs at full ISA on a CPU with AVX-512 VNNI
# (ct2_reference.py asks for that configuration; oneDNN then uses its exact VNNI int8 kernels and
# the AVX-512 sgemm whose summation orders Glossa reproduces), every float operation of an int8
# model is reproduced bit for bit and the int8 GEMMs are exact, so all outputs must be identical.
# Elsewhere (oneDNN's AVX2 kernels: other float orders; other CPUs) the floor holds.
REPRODUCED_BACKENDS = {"isa": "AVX2", "sgemm": "DNNL", "gemm_s8": "DNNL"}


def cpu_has_avx512_vnni():
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            return any(line.startswith("flags") and "avx512_vnni" in line.split() for line in f)
    except OSError:
        return False


def check_binary():
    glossa = os.environ.get("GLOSSA_BIN", os.path.join(ROOT, ".build", "debug", "glossa"))
    path = os.path.join(os.path.dirname(glossa), "glossa-neural-check")
    if not os.path.exists(path):
        pytest.fail("glossa-neural-check is not built at %s (swift build --product glossa-neural-check)" % path)
    return path


@pytest.fixture(scope="session")
def models():
    path = os.path.join(OUT, "models")
    subprocess.run([sys.executable, os.path.join(TOOLS, "make_models.py"), path],
                   check=True, stdout=subprocess.DEVNULL)
    return path


def run_reference(models, name, *flags):
    refs = os.path.join(OUT, name)
    subprocess.run([sys.executable, os.path.join(TOOLS, "ct2_reference.py"),
                    os.path.join(models, "manifest.json"), refs, *flags], check=True, cwd=TOOLS,
                   stderr=subprocess.DEVNULL)
    with open(refs, encoding="utf-8") as f:
        return refs, json.load(f)


@pytest.fixture(scope="session")
def references(models):
    """CTranslate2's outputs with the GEMMs it picks on this CPU: (path of the JSON, content)."""
    return run_reference(models, "ctranslate2.json")


@pytest.fixture(scope="session")
def avx2_references(models):
    """CTranslate2's outputs with oneDNN limited to AVX2, as on CPUs without AVX-512."""
    return run_reference(models, "ctranslate2-avx2.json", "--avx2-gemm")


# "best": the kernels this CPU selects (AVX-512 VNNI int8 and AVX-512 float GEMMs where the CPU
# has them), against CTranslate2 as it runs here; "portable": GLOSSA_INT8_KERNEL=avx2 forces the
# AVX2 kernels, the path of CPUs without AVX-512, against CTranslate2 with oneDNN limited to
# AVX2 likewise; "openblas": the same with OpenBLAS (or the few-row kernel) for float GEMMs
# (GLOSSA_FLOAT_GEMM=openblas).
KERNEL_SETS = {
    "best": ({}, "references"),
    "portable": ({"GLOSSA_INT8_KERNEL": "avx2"}, "avx2_references"),
    "openblas": ({"GLOSSA_INT8_KERNEL": "avx2", "GLOSSA_FLOAT_GEMM": "openblas"}, "avx2_references"),
}


@pytest.fixture(scope="session", params=list(KERNEL_SETS))
def comparison(request):
    environment, reference = KERNEL_SETS[request.param]
    refs, expected = request.getfixturevalue(reference)
    ours = os.path.join(OUT, "glossa-%s.json" % request.param)
    subprocess.run([check_binary(), refs, ours], check=True, timeout=900, env={**os.environ, **environment})
    with open(ours, encoding="utf-8") as f:
        actual = json.load(f)
    assert len(expected["cases"]) == len(actual["cases"])
    return expected, actual


def case_id(case):
    o = case["options"]
    return "%s-beam%d-lp%g-ngram%d" % (case["variant"], o["beam_size"], o["length_penalty"],
                                         o["no_repeat_ngram_size"])


def pairs(comparison, float_models):
    expected, actual = comparison
    for exp, act in zip(expected["cases"], actual["cases"]):
        if act["quantized"] != float_models:
            assert len(exp["expected"]) == len(act["outputs"]) == 50
            yield exp, act


def test_float_variants_match_ctranslate2_exactly(comparison):
    failures = []
    count = 0
    for exp, act in pairs(comparison, float_models=True):
        for i, (e, a) in enumerate(zip(exp["expected"], act["outputs"])):
            count += 1
            if e["tokens"] != a["tokens"]:
                failures.append("%s input %d: tokens %s != %s" % (case_id(exp), i, a["tokens"][:10], e["tokens"][:10]))
            elif abs(e["score"] - a["score"]) > FLOAT_SCORE_TOLERANCE:
                failures.append("%s input %d: score %.6f != %.6f" % (case_id(exp), i, a["score"], e["score"]))
    assert count == 4 * 4 * 50  # 4 float variants × 4 option sets × 50 inputs
    assert not failures, "\n".join(failures[:20])


def test_int8_variants(comparison):
    """int8 (and int16 files, which CTranslate2 runs as int8 here) decode with int8 GEMMs.

    Outputs must all be identical where CTranslate2 uses the kernels Glossa reproduces (AVX2 +
    oneDNN, REPRODUCED_BACKENDS), else agree for at least 90 % of inputs per case; equal outputs
    must score within 0.1. Under other backends the float summation orders differ, and a 1-ulp
    difference can flip one int8 rounding, which then propagates; the test prints the counts.
    """
    problems = []
    expected_all, _ = comparison
    reproduced = (expected_all.get("backends") == REPRODUCED_BACKENDS and cpu_has_avx512_vnni()
                  and expected_all.get("onednn_max_isa") == "default")
    floor = 1.0 if reproduced else INT8_MIN_TOKEN_AGREEMENT
    print("CTranslate2 backends %s: required agreement %.0f %%" % (expected_all.get("backends"), floor * 100))
    for exp, act in pairs(comparison, float_models=False):
        equal = [(e, a) for e, a in zip(exp["expected"], act["outputs"]) if e["tokens"] == a["tokens"]]
        agreement = len(equal) / len(exp["expected"])
        print("%s: %d/50 identical" % (case_id(exp), len(equal)))
        if agreement < floor:
            problems.append("%s: only %d/50 identical outputs" % (case_id(exp), len(equal)))
        for e, a in equal:
            if abs(e["score"] - a["score"]) > INT8_SCORE_TOLERANCE:
                problems.append("%s: score %.4f vs %.4f" % (case_id(exp), a["score"], e["score"]))
    assert not problems, "\n".join(problems[:20])


def test_argos_package_text_path(comparison):
    """Text → SentencePiece (the shim) → tokens → text through the unpacked .argosmodel."""
    expected, actual = comparison
    text = actual["text"]
    assert text["from"] == "en" and text["to"] == "de"
    assert text["source"] == expected["text"]["source"], "SentencePiece pieces differ from spm_encode"
    assert text["texts"] == expected["text"]["expected_texts"]


@pytest.fixture(scope="module")
def http_server(references):
    """Serves the generated models folder on 127.0.0.1 (a free port); stopped by PID."""
    import socket
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    proc = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1",
                             "--directory", os.path.join(OUT, "models")],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    import time
    import urllib.request
    deadline = time.time() + 10
    while True:
        try:
            urllib.request.urlopen("http://127.0.0.1:%d/manifest.json" % port, timeout=1).read()
            break
        except OSError:
            if time.time() > deadline:
                proc.kill()
                pytest.fail("test HTTP server did not start")
            time.sleep(0.1)
    yield "http://127.0.0.1:%d" % port
    proc.terminate()
    proc.wait(timeout=10)


@pytest.mark.parametrize("via", ["path", "url"])
def test_engine_install_translate_remove(references, http_server, via, tmp_path):
    """ModelStore install (path, or URL download from 127.0.0.1), NeuralEngine pairs and
    translate (text in, text out, equal to CTranslate2 + spm_decode), status, remove."""
    _, expected = references
    archive = expected["text"]["argosmodel"]
    source = archive if via == "path" else http_server + "/" + os.path.basename(archive)
    out = tmp_path / "engine.json"
    subprocess.run([check_binary(), "--engine", str(tmp_path / "store"), source,
                    os.path.join(OUT, "ctranslate2.json"), str(out)], check=True, timeout=600)
    result = json.loads(out.read_text(encoding="utf-8"))
    assert result["installed"] == "translate-en_de-1_0"
    assert result["listed"] == ["translate-en_de-1_0"] and result["after_remove"] == []
    assert result["pairs"] == ["en-de"] and result["status_loaded"] == ["en-de"]
    # The engine translates sentence by sentence (as Argos does): CTranslate2 on each sentence.
    assert result["texts"] == expected["text"]["expected_engine_texts"]
    first, second = expected["text"]["expected_engine_texts"][:2]
    assert result["joined"] == [first + "\n\n" + second]
    assert result["unsupported"] == "unsupported_pair"
    stages = [e.split()[0] for e in result["events"]]
    assert result["events"][-1] == "unpack 1.00"
    if via == "url":
        assert "download 1.00" in result["events"] and stages.index("download") < stages.index("unpack")
    else:
        assert "download" not in stages


def test_glossa_cli_translates_through_the_argos_package(references, glossa_bin, tmp_path):
    """The user's path: `glossa models install FILE`, the pair in `glossa pairs`, then
    `glossa translate` with CTranslate2's options gives CTranslate2's text, line for line (each
    line sentence by sentence, as Argos Translate translates)."""
    _, expected = references
    case = expected["text"]
    options = case["options"]
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data"), "GLOSSA_PREFER": "neural"}

    def glossa(*args, stdin=None):
        return subprocess.run([glossa_bin, *args], input=stdin, capture_output=True, text=True,
                              env=env, timeout=600)

    installed = glossa("models", "install", case["argosmodel"])
    assert installed.returncode == 0, installed.stderr
    assert "Unpacking" in installed.stderr and "100%" in installed.stderr, "progress is shown"
    assert "translate-en_de-1_0" in glossa("models", "list").stdout
    pairs = json.loads(glossa("pairs", "--json").stdout)
    assert {"source": "en", "target": "de", "kind": "direct", "path": ["en", "de"], "engines": ["neural"]} in pairs
    translated = glossa("translate", "-f", "en", "-t", "de",
                        "--beam-size", str(options["beam_size"]),
                        "--length-penalty", str(options["length_penalty"]),
                        "--max-decoding-length", str(options["max_decoding_length"]),
                        "--no-repeat-ngram-size", str(options["no_repeat_ngram_size"]),
                        stdin="\n".join(case["texts"]) + "\n")
    assert translated.returncode == 0, translated.stderr
    assert translated.stdout.split("\n")[:-1] == case["expected_engine_texts"]
    removed = glossa("models", "remove", "translate-en_de-1_0")
    assert removed.returncode == 0, removed.stderr
    assert glossa("translate", "-f", "en", "-t", "de", "Hello").returncode == 3


def test_glossa_defaults_are_the_ctranslate2_call_its_help_states(models, references, glossa_bin, tmp_path):
    """`glossa translate` without decoding options gives exactly what the CTranslate2 call in
    `glossa translate --help` gives (Glossa's defaults are not CTranslate2's own: the help says
    which they are, and this keeps it true)."""
    import re
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data"), "GLOSSA_PREFER": "neural"}
    help_text = subprocess.run([glossa_bin, "translate", "--help"], capture_output=True, text=True, timeout=60).stdout
    call = re.search(r"translator\.translate_batch\(tokens, ([^)]*)\)", help_text, re.S)
    assert call, "translate --help states the equivalent CTranslate2 call"
    options = {k: float(v) if "." in v else int(v) for k, v in re.findall(r"(\w+)=([\d.]+)", call.group(1))}
    assert set(options) == {"beam_size", "length_penalty", "max_decoding_length", "no_repeat_ngram_size"}, options
    _, expected = references
    case = expected["text"]
    with open(os.path.join(models, "manifest.json"), encoding="utf-8") as f:
        manifest = json.load(f)
    variant = manifest["variants"][os.environ.get("GLOSSA_ARGOS_VARIANT", "pre_relu_shared_f32")]
    count = 12
    # In a process of its own: ct2_reference sets CTranslate2's environment when imported.
    script = ("import json, sys, ct2_reference as r; a = json.load(sys.stdin); "
              "out = r.translate(a['model'], a['pieces'], a['options']); "
              "print(json.dumps(r.decode_pieces(a['spm'], [o['tokens'] for o in out])))")
    reference = subprocess.run([sys.executable, "-c", script], cwd=TOOLS, capture_output=True, text=True, check=True,
                               input=json.dumps({"model": variant["path"], "pieces": case["source"][:count],
                                                 "options": options, "spm": manifest["sentencepiece"]}))
    expected_texts = json.loads(reference.stdout)
    installed = subprocess.run([glossa_bin, "models", "install", case["argosmodel"]], capture_output=True,
                               text=True, env=env, timeout=600)
    assert installed.returncode == 0, installed.stderr
    translated = subprocess.run([glossa_bin, "translate", "-f", "en", "-t", "de"], input="\n".join(case["texts"][:count]) + "\n",
                                capture_output=True, text=True, env=env, timeout=900)
    assert translated.returncode == 0, translated.stderr
    assert translated.stdout.split("\n")[:-1] == expected_texts


def test_glossa_neural_beam_sets_the_default_beam(references, glossa_bin, tmp_path):
    """GLOSSA_NEURAL_BEAM is the beam of requests that set none: with it at 1, plain `glossa
    translate` gives what `--beam-size 1` gives (and not what beam 4 gives); an option the
    request sets still wins; a value out of range is refused at once, naming the setting."""
    _, expected = references
    case = expected["text"]
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data"), "GLOSSA_PREFER": "neural"}

    def translate(*args, **settings):
        return subprocess.run([glossa_bin, "translate", "-f", "en", "-t", "de", *args], input="\n".join(case["texts"][:20]) + "\n",
                              capture_output=True, text=True, env={**env, **settings}, timeout=600)

    installed = subprocess.run([glossa_bin, "models", "install", case["argosmodel"]], capture_output=True, text=True, env=env, timeout=600)
    assert installed.returncode == 0, installed.stderr
    beam4, greedy = translate().stdout, translate("--beam-size", "1").stdout
    assert beam4 != greedy, "these inputs do not tell beam 1 from beam 4"
    assert translate(GLOSSA_NEURAL_BEAM="1").stdout == greedy
    assert translate("--beam-size", "4", GLOSSA_NEURAL_BEAM="1").stdout == beam4
    refused = translate(GLOSSA_NEURAL_BEAM="0")
    assert refused.returncode == 2 and "GLOSSA_NEURAL_BEAM" in refused.stderr and refused.stdout == ""


# --- Serving: `glossa serve` over the generated Argos package, concurrent clients ---------------

def _post(url, path, body, headers):
    import http.client
    import urllib.parse
    parsed = urllib.parse.urlparse(url)
    conn = http.client.HTTPConnection(parsed.hostname, parsed.port, timeout=300)
    try:
        conn.request("POST", path, body=json.dumps(body).encode(), headers={"Content-Type": "application/json", **headers})
        response = conn.getresponse()
        return response.status, dict(response.getheaders()), json.loads(response.read() or b"null")
    finally:
        conn.close()


def _google(url, texts):
    """Google v2: (status, headers, translations or the error object)."""
    status, headers, data = _post(url, "/language/translate/v2", {"q": texts, "source": "en", "target": "de", "format": "text"}, {})
    return status, headers, [t["translatedText"] for t in data["data"]["translations"]] if status == 200 else data


def _libretranslate(url, texts):
    status, headers, data = _post(url, "/translate", {"q": texts, "source": "en", "target": "de"}, {})
    return status, headers, data["translatedText"] if status == 200 else data


def _deepl(url, texts):
    status, headers, data = _post(url, "/v2/translate", {"text": texts, "source_lang": "EN", "target_lang": "DE"},
                                  {"Authorization": "DeepL-Auth-Key k"})
    return status, headers, [t["text"] for t in data["translations"]] if status == 200 else data


@pytest.fixture
def neural_server(references, glossa_bin, tmp_path, monkeypatch):
    """Starts `glossa serve` with the generated package installed and the given GLOSSA_NEURAL_*
    settings; stopped by PID when the test ends."""
    from glossa_server import Server
    _, expected = references
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("GLOSSA_PREFER", "neural")
    monkeypatch.setenv("GLOSSA_PREWARM", "none")
    installed = subprocess.run([glossa_bin, "models", "install", expected["text"]["argosmodel"]],
                               capture_output=True, text=True, timeout=300)
    assert installed.returncode == 0, installed.stderr
    servers = []

    def start(**settings):
        for name, value in settings.items():
            monkeypatch.setenv(name, value)
        servers.append(Server(glossa_bin))
        return servers[-1].url

    yield start
    for server in servers:
        assert server.stop() == 0


def _concurrently(count, call):
    """Runs call(i) for i in range(count) on `count` threads released together."""
    import threading
    barrier = threading.Barrier(count)
    results = [None] * count

    def run(i):
        barrier.wait(timeout=60)
        results[i] = call(i)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=600)
    return results


@pytest.mark.parametrize("batching", ["on", "off"])
def test_concurrent_clients_each_get_their_own_translations(references, neural_server, batching):
    """16 clients at once over three protocols: each gets exactly CTranslate2's translation of
    its own texts (sentence by sentence, gaps kept), in order, whether their sentences were
    batched together (on) or each request alone (off)."""
    _, expected = references
    case = expected["text"]["engine_defaults"]
    texts, wanted = case["texts"], case["expected_texts"]
    # Some inputs really are several sentences, and differ from whole-line translation.
    assert any(s.count("\n") for s in texts) and expected["text"]["expected_engine_texts"] != expected["text"]["expected_texts"]
    url = neural_server(GLOSSA_NEURAL_BATCHING=batching)
    clients = [_google, _libretranslate, _deepl]
    shares = [list(range(i, len(texts), 16)) for i in range(16)]
    results = _concurrently(16, lambda i: clients[i % 3](url, [texts[k] for k in shares[i]]))
    for i, (status, _, got) in enumerate(results):
        assert status == 200, got
        assert got == [wanted[k] for k in shares[i]], "client %d" % i


def test_a_full_queue_answers_503_in_each_protocols_envelope(references, neural_server):
    """With room for one waiting sentence, simultaneous clients are refused with 503 (and a
    Retry-After) in Google's, LibreTranslate's and DeepL's own error shapes; every request that
    was taken is translated exactly."""
    _, expected = references
    case = expected["text"]["engine_defaults"]
    paragraphs = case["texts"][50:54]
    wanted = case["expected_texts"][50:54]
    url = neural_server(GLOSSA_NEURAL_QUEUE="1", GLOSSA_NEURAL_BATCHING="off")
    clients = [_google, _libretranslate, _deepl]
    refused = {}
    for _ in range(3):   # bounded: simultaneous arrivals overflow the queue at once in practice
        results = _concurrently(24, lambda i: (i % 3, clients[i % 3](url, paragraphs)))
        for which, (status, headers, got) in results:
            if status == 200:
                assert got == wanted
                continue
            assert status == 503, got
            assert headers.get("Retry-After") == "1"
            refused[which] = got
        if len(refused) == 3:
            break
    assert refused, "no request was refused with a queue of one sentence"
    for which, body in refused.items():
        if which == 0:
            assert body["error"]["code"] == 503 and body["error"]["status"] == "UNAVAILABLE"
            assert "busy" in body["error"]["message"]
        elif which == 1:
            assert "busy" in body["error"]
        else:
            assert "busy" in body["message"]
