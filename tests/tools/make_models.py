#!/usr/bin/env python3
"""Generates small random CTranslate2 Transformer models for Glossa's neural engine tests.

The models are built through CTranslate2's own spec API (TransformerSpec.from_config, random
weights, validate, optimize (aliases + quantization), save), so the files are exactly what the
reference runtime writes and reads. Random weights give arbitrary but deterministic outputs;
equality with CTranslate2 on the same files is the check.

Usage:
  make_models.py OUT_DIR            test variants, a SentencePiece model and an .argosmodel
  make_models.py OUT_DIR --bench    one transformer-base-sized model (float32 and int8)
  make_models.py OUT_DIR --argos-base [EOS_BIAS]
                                    a transformer-base-sized int8 .argosmodel (as Argos ships its
                                    models) with a SentencePiece vocabulary, for the server benchmark

Nothing here is product code; the output goes to a test-output directory, never committed.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import zipfile

import numpy as np
from ctranslate2.specs import common_spec, transformer_spec

FLORES = os.environ.get("GLOSSA_FLORES_DIR", os.path.join(
    os.path.dirname(__file__), "..", "..", "..", "shared", "data", "flores200-dev"))
SPM_LANGS = ["eng_Latn", "deu_Latn", "fra_Latn", "spa_Latn"]

# name: (pre_norm, activation, shared vocabulary, learned positions, add_source_eos, quantization)
VARIANTS = {
    "pre_relu_shared_f32": (True, common_spec.Activation.RELU, True, False, False, None),
    "post_gelu_separate_f32": (False, common_spec.Activation.GELU, False, True, True, None),
    "pre_gelutanh_separate_f32": (True, common_spec.Activation.GELUTanh, False, False, True, None),
    "post_relu_shared_f16": (False, common_spec.Activation.RELU, True, False, False, "float16"),
    "pre_relu_shared_int8": (True, common_spec.Activation.RELU, True, False, False, "int8"),
    "post_gelu_separate_int8": (False, common_spec.Activation.GELU, False, True, True, "int8"),
    "pre_relu_shared_int16": (True, common_spec.Activation.RELU, True, False, False, "int16"),
}
ARGOS_VARIANT = "pre_relu_shared_f32"


def find_flores():
    path = os.path.abspath(FLORES)
    if not os.path.isdir(path):
        sys.exit("make_models: FLORES-200 dev text not found at %s" % path)
    return path


def train_sentencepiece(out_dir, vocab_size):
    """Trains a unigram model with Debian's spm_train; returns (model path, pieces in id order)."""
    flores = find_flores()
    text = os.path.join(out_dir, "spm_train.txt")
    with open(text, "w", encoding="utf-8") as out:
        for lang in SPM_LANGS:
            with open(os.path.join(flores, lang + ".dev"), encoding="utf-8") as f:
                out.write(f.read())
    prefix = os.path.join(out_dir, "spm")
    subprocess.run(
        ["spm_train", "--input=" + text, "--model_prefix=" + prefix,
         "--vocab_size=%d" % vocab_size, "--model_type=unigram", "--character_coverage=1.0",
         "--seed_sentencepiece_size=100000", "--num_threads=2", "--minloglevel=2",
         "--unk_id=0", "--bos_id=1", "--eos_id=2", "--pad_id=-1"],
        check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with open(prefix + ".vocab", encoding="utf-8") as f:
        pieces = [line.rstrip("\n").split("\t")[0] for line in f]
    return prefix + ".model", pieces


def random_spec(rng, pre_norm, activation, learned_positions, src_vocab, tgt_vocab,
                layers, d_model, heads, ffn, tie_embeddings, eos_id, eos_bias):
    spec = transformer_spec.TransformerSpec.from_config(
        layers, heads, pre_norm=pre_norm, activation=activation)

    def linear(lin, out_dim, in_dim, gain=1.0):
        lin.weight = (rng.standard_normal((out_dim, in_dim)) * gain / np.sqrt(in_dim)).astype(np.float32)
        lin.bias = (rng.standard_normal(out_dim) * 0.1).astype(np.float32)

    def norm(ln):
        ln.gamma = (1.0 + rng.standard_normal(d_model) * 0.1).astype(np.float32)
        ln.beta = (rng.standard_normal(d_model) * 0.1).astype(np.float32)

    def positions(pe):
        if learned_positions:
            pe.encodings = (rng.standard_normal((256, d_model)) * 0.5).astype(np.float32)

    emb_scale = 1.0 / np.sqrt(d_model)  # scaled by sqrt(d_model) at run time
    src_emb = (rng.standard_normal((src_vocab, d_model)) * emb_scale).astype(np.float32)
    tgt_emb = src_emb.copy() if tie_embeddings else (
        rng.standard_normal((tgt_vocab, d_model)) * emb_scale).astype(np.float32)

    enc, dec = spec.encoder, spec.decoder
    enc.embeddings[0].weight = src_emb
    positions(enc.position_encodings)
    if pre_norm:
        norm(enc.layer_norm)
    for layer in enc.layer:
        norm(layer.self_attention.layer_norm)
        linear(layer.self_attention.linear[0], 3 * d_model, d_model)
        linear(layer.self_attention.linear[1], d_model, d_model)
        norm(layer.ffn.layer_norm)
        linear(layer.ffn.linear_0, ffn, d_model)
        linear(layer.ffn.linear_1, d_model, ffn)
    dec.embeddings.weight = tgt_emb
    positions(dec.position_encodings)
    if pre_norm:
        norm(dec.layer_norm)
    for layer in dec.layer:
        norm(layer.self_attention.layer_norm)
        linear(layer.self_attention.linear[0], 3 * d_model, d_model)
        linear(layer.self_attention.linear[1], d_model, d_model)
        norm(layer.attention.layer_norm)
        linear(layer.attention.linear[0], d_model, d_model)
        linear(layer.attention.linear[1], 2 * d_model, d_model)
        linear(layer.attention.linear[2], d_model, d_model)
        norm(layer.ffn.layer_norm)
        linear(layer.ffn.linear_0, ffn, d_model)
        linear(layer.ffn.linear_1, d_model, ffn)
    if tie_embeddings:
        # Tied output projection: written as an alias of the embedding (tests alias resolution).
        dec.projection.weight = tgt_emb.copy()
        dec.projection.bias = np.zeros(tgt_vocab, dtype=np.float32)
    else:
        # A peaked output distribution keeps greedy/beam choices far from float ties.
        linear(dec.projection, tgt_vocab, d_model, gain=4.0)
    dec.projection.bias[eos_id] += eos_bias
    return spec


def save_spec(spec, out, src_tokens, tgt_tokens, quantization, add_source_eos):
    if os.path.exists(out):
        shutil.rmtree(out)
    os.makedirs(out)
    spec.register_source_vocabulary(src_tokens)
    spec.register_target_vocabulary(tgt_tokens)
    spec.config.add_source_eos = add_source_eos
    spec.validate()
    spec.optimize(quantization=quantization)
    spec.save(out)


def make_test_models(out_dir):
    out_dir = os.path.abspath(out_dir)
    os.makedirs(out_dir, exist_ok=True)
    spm_model, pieces = train_sentencepiece(out_dir, 2000)
    eos_id = pieces.index("</s>")
    manifest = {"sentencepiece": spm_model, "variants": {}}
    for index, (name, (pre_norm, act, shared, learned, src_eos, quant)) in enumerate(VARIANTS.items()):
        rng = np.random.default_rng(1000 + index)
        if shared:
            tgt_tokens = list(pieces)
        else:
            # Same pieces in another order: output ids must be mapped back through the vocabulary.
            rest = pieces[3:]
            tgt_tokens = pieces[:3] + [rest[i] for i in rng.permutation(len(rest))]
        tgt_eos = tgt_tokens.index("</s>")
        spec = random_spec(rng, pre_norm, act, learned, len(pieces), len(tgt_tokens),
                           (2, 2), 64, 4, 128, tie_embeddings=shared, eos_id=tgt_eos,
                           eos_bias=2.5 if shared else 9.0)
        path = os.path.join(out_dir, name)
        save_spec(spec, path, list(pieces), tgt_tokens, quant, src_eos)
        manifest["variants"][name] = {"path": path, "quantization": quant or "float32"}
    manifest["argosmodel"] = pack_argos(out_dir, manifest["variants"][ARGOS_VARIANT]["path"],
                                        spm_model)
    with open(os.path.join(out_dir, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=2)
    return manifest


def pack_argos(out_dir, model_dir, spm_model, name="translate-en_de-1_0"):
    """Packs a model as Argos Translate does: <name>/metadata.json, <name>/model/, <name>/sentencepiece.model."""
    path = os.path.join(out_dir, name + ".argosmodel")
    metadata = {"package_version": "1.0", "argos_version": "1.9.0", "from_code": "en",
                "from_name": "English", "to_code": "de", "to_name": "German",
                "type": "translate", "links": []}
    with zipfile.ZipFile(path, "w") as z:
        # metadata stored, everything else deflated: the reader must handle both methods.
        z.writestr(name + "/metadata.json", json.dumps(metadata, indent=2),
                   compress_type=zipfile.ZIP_STORED)
        z.write(spm_model, name + "/sentencepiece.model", compress_type=zipfile.ZIP_DEFLATED)
        for entry in sorted(os.listdir(model_dir)):
            z.write(os.path.join(model_dir, entry), name + "/model/" + entry,
                    compress_type=zipfile.ZIP_DEFLATED)
    return path


# Transformer-base: (encoder, decoder) layers, width, heads, FFN width.
BASE_SHAPE = ((6, 6), 512, 8, 2048)


def make_bench_model(out_dir):
    """A transformer-base-sized model (6+6 layers, 512 wide, 8 heads, FFN 2048, 32k vocab)."""
    out_dir = os.path.abspath(out_dir)
    os.makedirs(out_dir, exist_ok=True)
    vocab = ["<unk>", "<s>", "</s>"] + ["tok%d" % i for i in range(32000 - 3)]
    paths = {}
    for quant in ("float32", "int8"):
        rng = np.random.default_rng(7)
        spec = random_spec(rng, True, common_spec.Activation.RELU, False, len(vocab), len(vocab),
                           *BASE_SHAPE, tie_embeddings=True, eos_id=2, eos_bias=-1e4)
        path = os.path.join(out_dir, "base_" + quant)
        save_spec(spec, path, vocab, vocab, None if quant == "float32" else quant, False)
        paths[quant] = path
    return paths


def make_argos_base(out_dir, eos_bias):
    """An .argosmodel the size of a real Argos Translate package (6+6 layers, 512 wide, 8 heads,
    FFN 2048, int8) over an 8,000-piece SentencePiece vocabulary trained on FLORES. Random
    weights: `eos_bias` on the end token's logit sets how long the outputs run."""
    out_dir = os.path.abspath(out_dir)
    os.makedirs(out_dir, exist_ok=True)
    spm_model, pieces = train_sentencepiece(out_dir, 8000)
    rng = np.random.default_rng(11)
    spec = random_spec(rng, True, common_spec.Activation.RELU, False, len(pieces), len(pieces),
                       *BASE_SHAPE, tie_embeddings=True, eos_id=pieces.index("</s>"),
                       eos_bias=eos_bias)
    path = os.path.join(out_dir, "base_int8")
    save_spec(spec, path, list(pieces), list(pieces), "int8", False)
    return {"argosmodel": pack_argos(out_dir, path, spm_model, name="translate-en_de-base"),
            "sentencepiece": spm_model, "model": path}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out_dir")
    parser.add_argument("--bench", action="store_true")
    parser.add_argument("--argos-base", nargs="?", type=float, const=3.5, default=None, metavar="EOS_BIAS")
    args = parser.parse_args()
    if args.bench:
        print(json.dumps(make_bench_model(args.out_dir)))
    elif args.argos_base is not None:
        print(json.dumps(make_argos_base(args.out_dir, args.argos_base)))
    else:
        print(json.dumps(make_test_models(args.out_dir), indent=2))


if __name__ == "__main__":
    main()
