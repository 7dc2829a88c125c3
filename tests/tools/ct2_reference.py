#!/usr/bin/env python3
"""Runs CTranslate2 on the generated test models and writes the reference cases as JSON.

Usage: ct2_reference.py MANIFEST_JSON OUT_JSON [--inputs N] [--avx2-gemm]

CTranslate2 runs in one configuration on every x86 machine: oneDNN GEMMs (CT2_USE_MKL=0, instead
of MKL on Intel CPUs) and its AVX2 vector kernels (CT2_FORCE_CPU_ISA=AVX2), the configuration it
picks by itself on AMD CPUs. --avx2-gemm also limits oneDNN to AVX2 (ONEDNN_MAX_CPU_ISA=AVX2): the
GEMMs CTranslate2 runs on CPUs without AVX-512, which saturate 16-bit sums in int8 products.

Each case names a model directory, the decoding options, the source pieces (SentencePiece
pieces from Debian's spm_encode on FLORES-200 English sentences) and CTranslate2's best
hypothesis (target tokens and score) for every input. glossa-neural-check reads the same file,
decodes with Glossa and writes its own results for the comparison in test_neural_reference.py.
"""
import argparse
import json
import os
import re
import subprocess
import sys

# Read by CTranslate2 and oneDNN when they start, so set before the import (and inherited by the
# subprocess that reads the backend log).
os.environ.setdefault("CT2_USE_MKL", "0")
os.environ.setdefault("CT2_FORCE_CPU_ISA", "AVX2")
if "--avx2-gemm" in sys.argv:
    os.environ["ONEDNN_MAX_CPU_ISA"] = "AVX2"

import ctranslate2  # noqa: E402

from make_models import find_flores  # noqa: E402
from sentences import segments  # noqa: E402

# Decoding settings compared for every variant: greedy and beam 4, with and without the
# repeated n-gram guard, and a length penalty other than 1 for beam search.
OPTION_SETS = [
    {"beam_size": 1, "length_penalty": 1.0, "max_decoding_length": 40, "no_repeat_ngram_size": 0},
    {"beam_size": 4, "length_penalty": 1.0, "max_decoding_length": 40, "no_repeat_ngram_size": 0},
    {"beam_size": 1, "length_penalty": 1.0, "max_decoding_length": 40, "no_repeat_ngram_size": 3},
    {"beam_size": 4, "length_penalty": 0.6, "max_decoding_length": 40, "no_repeat_ngram_size": 2},
]


def source_sentences(count):
    with open(os.path.join(find_flores(), "eng_Latn.dev"), encoding="utf-8") as f:
        lines = [line.strip() for line in f if line.strip()]
    return lines[:count]


def encode_pieces(spm_model, sentences):
    out = subprocess.run(["spm_encode", "--model=" + spm_model, "--output_format=piece"],
                         input="\n".join(sentences) + "\n", capture_output=True, text=True,
                         check=True)
    return [line.split(" ") for line in out.stdout.rstrip("\n").split("\n")]


def decode_pieces(spm_model, hypotheses):
    out = subprocess.run(["spm_decode", "--model=" + spm_model, "--input_format=piece"],
                         input="\n".join(" ".join(h) for h in hypotheses) + "\n",
                         capture_output=True, text=True, check=True)
    return out.stdout.rstrip("\n").split("\n")


def translate(model_dir, pieces, options, threads=1):
    translator = ctranslate2.Translator(model_dir, device="cpu", compute_type="default",
                                        inter_threads=1, intra_threads=threads)
    results = translator.translate_batch(
        pieces,
        beam_size=options["beam_size"],
        length_penalty=options["length_penalty"],
        max_decoding_length=options["max_decoding_length"],
        no_repeat_ngram_size=options["no_repeat_ngram_size"],
        return_scores=True,
    )
    return [{"tokens": r.hypotheses[0], "score": r.scores[0]} for r in results]


# NeuralEngine.Configuration.defaults: what a request that sets no decoding option gets.
ENGINE_DEFAULTS = {"beam_size": 4, "length_penalty": 1.0, "max_decoding_length": 256, "no_repeat_ngram_size": 4}


def translate_as_sentences(model_dir, spm_model, texts, options):
    """Each text translated sentence by sentence (as Argos Translate does), gaps kept."""
    split = [segments(t) for t in texts]
    wanted = [piece for parts in split for is_sentence, piece in parts if is_sentence]
    outputs = iter(decode_pieces(spm_model, [r["tokens"] for r in translate(
        model_dir, encode_pieces(spm_model, wanted), options)]) if wanted else [])
    return ["".join(next(outputs) if is_sentence else piece for is_sentence, piece in parts) for parts in split]


def engine_defaults_case(model_dir, spm_model, sentences):
    """Texts and paragraphs as a server request sends them (engine defaults), with CTranslate2's
    translation of each sentence put back between the original gaps."""
    gaps = [" ", "  ", "\n", "\r\n", "\n\n", "\t"]
    paragraphs = ["  " + sentences[i] + gaps[i % len(gaps)] + sentences[i + 1] + " " + sentences[i + 2] + "\n"
                  for i in range(0, 30, 3)]
    texts = sentences + paragraphs
    return {"options": ENGINE_DEFAULTS, "texts": texts,
            "expected_texts": translate_as_sentences(model_dir, spm_model, texts, ENGINE_DEFAULTS)}


def backends(model_dir):
    """CTranslate2's CPU kernel choices on this machine, from its own log (CT2_VERBOSE=1):
    the vector ISA and the float and int8 GEMM libraries. Glossa reproduces the AVX2 kernels
    and oneDNN's summation orders, so the test can demand exact equality under those."""
    log = subprocess.run([sys.executable, "-c", "import ctranslate2, sys; ctranslate2.Translator(sys.argv[1])",
                          model_dir], env={**os.environ, "CT2_VERBOSE": "1"}, capture_output=True,
                         text=True, check=True).stderr
    found = {}
    for key, pattern in (("isa", r"Selected ISA: (\S+)"), ("sgemm", r"SGEMM backend: (\S+)"),
                         ("gemm_s8", r"GEMM_S8 backend: (\S+)")):
        match = re.search(pattern, log)
        found[key] = match.group(1) if match else None
    return found


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("manifest")
    parser.add_argument("out")
    parser.add_argument("--inputs", type=int, default=50)
    parser.add_argument("--avx2-gemm", action="store_true", help="limit oneDNN to AVX2 kernels")
    args = parser.parse_args()
    with open(args.manifest) as f:
        manifest = json.load(f)
    spm_model = manifest["sentencepiece"]
    sentences = source_sentences(args.inputs)
    pieces = encode_pieces(spm_model, sentences)
    cases = []
    for name, variant in manifest["variants"].items():
        for options in OPTION_SETS:
            cases.append({
                "variant": name,
                "model": variant["path"],
                "options": options,
                "source": pieces,
                "expected": translate(variant["path"], pieces, options),
            })
    # The whole text path for the Argos package: text in, text out (pieces decoded by spm_decode).
    argos = manifest["variants"][os.environ.get("GLOSSA_ARGOS_VARIANT", "pre_relu_shared_f32")]
    options = OPTION_SETS[1]
    expected = translate(argos["path"], pieces, options)
    text_case = {
        "argosmodel": manifest["argosmodel"],
        "options": options,
        "texts": sentences,
        "source": pieces,
        "expected_texts": decode_pieces(spm_model, [e["tokens"] for e in expected]),
    }
    # The engine's path: each text cut into sentences (tests/tools/sentences.py, the rule of
    # SentenceSplitter.swift), each sentence translated, the text between sentences kept.
    text_case["expected_engine_texts"] = translate_as_sentences(argos["path"], spm_model, sentences, options)
    text_case["engine_defaults"] = engine_defaults_case(argos["path"], spm_model, sentences)
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump({"ctranslate2": ctranslate2.__version__, "backends": backends(argos["path"]),
                   "onednn_max_isa": os.environ.get("ONEDNN_MAX_CPU_ISA", "default"),
                   "cases": cases, "text": text_case}, f, ensure_ascii=False)


if __name__ == "__main__":
    main()
