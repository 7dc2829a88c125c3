"""An independent Python statement of the sentence rule of Sources/NeuralEngine/Packages/
SentenceSplitter.swift, for the reference texts: a paragraph is translated the way Argos
Translate does it, sentence by sentence, with the text between sentences kept as it was.

segments(text) returns [(is_sentence, piece), ...]; the pieces concatenate to `text`."""

TERMINATORS = set(".!?…。！？।॥؟۔։።")
FULL_WIDTH = set("。！？")
CLOSERS = set("\"'”’»›)]}」』）")
ABBREVIATIONS = {"mr", "mrs", "ms", "dr", "prof", "st", "sr", "jr", "mt", "gen", "col", "capt", "lt", "sgt",
                 "gov", "sen", "rep", "rev", "hon", "vs", "etc", "e.g", "i.e", "no", "vol", "fig", "inc", "ltd", "co"}


def _ends_sentence(sentence, following):
    if following.islower() or following.isnumeric():
        return False
    body = sentence.rstrip("".join(CLOSERS))
    if not body or body[-1] not in TERMINATORS:
        return False
    if body[-1] != ".":
        return True
    word = ""
    for ch in reversed(body[:-1]):
        if ch.isspace() or ch in CLOSERS or ch in "(\"":
            break
        word = ch + word
    lowered = word.lower()
    if all(len(p) == 1 and p.isalpha() for p in lowered.split(".")):
        return False
    return lowered not in ABBREVIATIONS


def segments(text):
    out, n, i = [], len(text), 0
    while i < n and text[i].isspace():
        i += 1
    if i:
        out.append((False, text[:i]))
    start = i
    while i < n:
        ch = text[i]
        if ch.isspace():
            end, has_break = i, False
            while end < n and text[end].isspace():
                has_break |= text[end] in "\n\r\x0b\x0c\x85\u2028\u2029"
                end += 1
            if has_break or end == n or _ends_sentence(text[start:i], text[end]):
                if start < i:
                    out.append((True, text[start:i]))
                out.append((False, text[i:end]))
                start = end
            i = end
            continue
        i += 1
        if ch in FULL_WIDTH:
            end = i
            while end < n and text[end] in CLOSERS:
                end += 1
            if end < n and not text[end].isspace():
                out.append((True, text[start:end]))
                start = end
            i = end
    if start < n:
        out.append((True, text[start:]))
    return out
