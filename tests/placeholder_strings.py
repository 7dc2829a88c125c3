"""The placeholder suite's strings: English msgids from the gettext catalogues (.mo) that Debian
packages install under /usr/share/locale, each with a printf placeholder, the first 200 in sha1
order (so the same packages give the same strings). Every kind of placeholder a localization
tool sends is covered: an eighth of the strings keep their printf placeholders, and in each other
eighth the first one is replaced by one kind (`{name}`, `{{count}}`, `%1$d`, `$var`,
`<x id="1"/>`, an ICU plural, an XLIFF inline code), so each kind sits in real sentences."""
import gettext
import hashlib
import pathlib
import re

LOCALE = pathlib.Path("/usr/share/locale/es/LC_MESSAGES")
PRINTF = re.compile(r"%(?:\d+\$)?[-+#0]*\d*(?:\.\d+)?(?:hh|h|ll|l|L|z|j|t)?[diouxXeEfgGcsp]|%%")
KINDS = [None, "{name}", "{{count}}", "%1$d", "$var", '<x id="1"/>',
         "{n, plural, one {# file} other {# files}}", '<ph id="2">{0}</ph>']


def catalogue_strings() -> list[str]:
    texts = set()
    for mo in sorted(LOCALE.glob("*.mo")):
        try:
            with open(mo, "rb") as f:
                catalog = gettext.GNUTranslations(f)
        except Exception:  # a catalogue Python cannot read is skipped
            continue
        for key in catalog._catalog:
            text = key[0] if isinstance(key, tuple) else key
            if not isinstance(text, str) or "\x00" in text or "\x04" in text or "\n" in text:
                continue
            if 20 <= len(text) <= 160 and PRINTF.search(text) and len(re.findall(r"[A-Za-z]{3,}", text)) >= 3 \
                    and not re.search(r"[{}$<>&\\]", text):
                texts.add(text)
    return sorted(texts, key=lambda t: hashlib.sha1(t.encode()).hexdigest())


def suite(count: int = 200) -> list[tuple[str, list[str]]]:
    """(string, its placeholders in order) for `count` strings."""
    out = []
    for i, text in enumerate(catalogue_strings()[:count]):
        kind = KINDS[i % len(KINDS)]
        if kind is not None:
            match = PRINTF.search(text)
            text = text[:match.start()] + kind + text[match.end():]
        out.append((text, placeholders(text)))
    return out


def placeholders(text: str) -> list[str]:
    """The placeholders of a suite string, in order (the kinds are known exactly)."""
    found = []
    for kind in KINDS[1:]:
        start = text.find(kind)
        if start >= 0:
            found.append((start, kind))
            text = text[:start] + "\x00" * len(kind) + text[start + len(kind):]
    found += [(m.start(), m.group()) for m in PRINTF.finditer(text)]
    return [p for _, p in sorted(found)]
