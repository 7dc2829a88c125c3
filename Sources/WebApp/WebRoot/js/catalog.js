// What the service can do: its languages (names localized into the browser's language) and the
// directions it can translate. Codes are kept as the Google v2 endpoints write them ("en", "pt").
import * as api from "./api.js";

/** A comparable form of a language code: "eng", "en_US" and "EN-us" all become what Intl says. */
export function codeKey(code) {
  const [language, ...rest] = String(code).replace(/_/g, "-").split("-");
  // ICU's canonical form maps ISO 639-3 codes that have a 639-1 form to it ("spa" → "es"), so
  // the APy-style pair list and the v2 language list meet on one spelling. Apertium's variant
  // names are not always valid BCP 47 ("ca-valencia-uni"): then only the language is canonicalized.
  let base = language;
  try { base = Intl.getCanonicalLocales(language)[0]; } catch (_) { /* not a language subtag */ }
  const tag = [base, ...rest].join("-");
  try { return Intl.getCanonicalLocales(tag)[0].toLowerCase(); } catch (_) { return tag.toLowerCase(); }
}

export class Catalog {
  /**
   * @param languages [{language, name?}] from /languages
   * @param pairs [{source, target}] or null when the service offers no pair list
   * @param displayLanguage the language the names are in
   */
  constructor(languages, pairs, displayLanguage) {
    this.displayLanguage = displayLanguage;
    // The v2 list holds the languages something translates into; a language that is only ever a
    // source (Basque) is named by the pair list alone, and joins with the browser's name for it.
    // (Engine variants the v2 list leaves out for want of a name of their own stay out.)
    const listed = new Set(languages.map((l) => codeKey(l.language)));
    const targets = new Set((pairs || []).map((p) => codeKey(p.target)));
    for (const { source } of pairs || []) {
      const key = codeKey(source);
      if (!listed.has(key) && !targets.has(key)) { listed.add(key); languages = languages.concat([{ language: source }]); }
    }
    this.byKey = new Map(languages.map((l) => [codeKey(l.language), l.language]));
    let intlNames = null;
    try { intlNames = new Intl.DisplayNames([displayLanguage || "en"], { type: "language" }); } catch (_) { /* old browser */ }
    this.intlNames = intlNames; // names languages this server lacks (one it detects but cannot translate)
    this.names = new Map(languages.map((l) => {
      let name = l.name;
      if (!name && intlNames) { try { name = intlNames.of(l.language); } catch (_) { name = null; } }
      return [l.language, name || l.language];
    }));
    // Variants may share a name ("Catalan" for ca and ca-iec2017): the code tells them apart.
    const seen = new Map();
    for (const [code, name] of this.names) seen.set(name, (seen.get(name) || 0) + 1);
    const shortest = new Map();
    for (const [code, name] of this.names) if (!shortest.has(name) || code.length < shortest.get(name).length) shortest.set(name, code);
    for (const [code, name] of [...this.names]) if (seen.get(name) > 1 && shortest.get(name) !== code) this.names.set(code, `${name} (${code})`);
    this.collator = new Intl.Collator(displayLanguage || undefined);
    this.codes = languages.map((l) => l.language).sort((a, b) => this.collator.compare(this.name(a), this.name(b)));
    this.hasPairList = pairs !== null;
    this.targets = new Map();
    this.paths = new Map(); // "source|target" → the languages in between, for pivots
    for (const { source, target, path } of pairs || []) {
      // Pairs between codes the v2 list does not name are left out, rather than taken for their
      // base language's: `en → ca-pre2017` goes through French, `en → ca` does not.
      const s = this.byKey.get(codeKey(source));
      const t = this.byKey.get(codeKey(target));
      if (!s || !t || s === t) continue;
      if (!this.targets.has(s)) this.targets.set(s, new Set());
      this.targets.get(s).add(t);
      if (Array.isArray(path) && path.length > 2) this.paths.set(`${s}|${t}`, path.slice(1, -1));
    }
  }

  /** Loads names in `displayLanguage` (or its base language, or none) and the pair list. */
  static async load(displayLanguage) {
    const tries = [displayLanguage, displayLanguage && displayLanguage.split("-")[0], null]
      .filter((v, i, all) => all.indexOf(v) === i);
    let languages = null;
    let named = null;
    let lastError = null;
    for (const attempt of tries) {
      try { languages = await api.languages(attempt); named = attempt; break; } catch (error) {
        lastError = error;
        // Only a refusal of the display language is worth another try; a dead service is not.
        // (A refused key is a 400 in Google's protocol too, and no other language mends it.)
        if (!(error instanceof api.ServiceError) || error.status !== 400 || error.keyProblem) throw error;
      }
    }
    if (!languages) throw lastError;
    let pairs = null;
    try { pairs = await api.pairs(); } catch (error) {
      if (!(error instanceof api.ServiceError) || error.status !== 404) throw error;
    }
    return new Catalog(languages, pairs, named || displayLanguage);
  }

  /** The catalog's own code for any spelling of a language ("en-US" → "en" when only "en" exists). */
  resolve(code) {
    if (!code) return null;
    const key = codeKey(code);
    if (this.byKey.has(key)) return this.byKey.get(key);
    const base = key.split("-")[0];
    return this.byKey.get(base) || null;
  }

  /** The localized name of a code: the service's, else the browser's (for a language the
   *  service does not list), else the code. */
  name(code) {
    const own = this.resolve(code);
    if (own && this.names.get(own)) return this.names.get(own);
    try { return (this.intlNames && code && this.intlNames.of(code)) || code; } catch (_) { return code; }
  }

  /** Whether texts in `code` can be translated here (some installed pair starts from it). */
  isSource(code) {
    const own = this.resolve(code);
    return Boolean(own) && this.sources().includes(own);
  }

  /** Languages that can be translated from, sorted by name. */
  sources() {
    return this.hasPairList ? this.codes.filter((c) => this.targets.has(c)) : this.codes;
  }

  /** Languages `source` can be translated into (every language it has a pair to), sorted by name.
   *  With no source: every language that is the target of some pair. */
  targetsFrom(source) {
    if (!this.hasPairList) return this.codes.filter((c) => c !== source);
    if (!source) {
      const all = new Set();
      for (const set of this.targets.values()) for (const t of set) all.add(t);
      return this.codes.filter((c) => all.has(c));
    }
    const set = this.targets.get(this.resolve(source)) || new Set();
    return this.codes.filter((c) => set.has(c));
  }

  /** The languages a translation goes through (["es"] for pt → ca via Spanish); [] when direct. */
  via(source, target) {
    return this.paths.get(`${this.resolve(source)}|${this.resolve(target)}`) || [];
  }

  /** Whether two codes are one language, whatever the region or variant ("en", "en-US"). */
  same(a, b) {
    const base = (code) => codeKey(this.resolve(code) || code).split("-")[0];
    return Boolean(a && b) && base(a) === base(b);
  }

  /** The name of the language itself, without its region or variant ("en-US" → "English"). */
  languageName(code) {
    return this.name(codeKey(this.resolve(code) || code).split("-")[0]);
  }

  /** The target to offer first among `targets`: never the source's own language (translating
   *  into it gives the text back; a variant of it is for the user to choose), so the first of
   *  `preferred` (the browser's languages) in another language, else English or Spanish, else
   *  the first other one. */
  defaultTarget(source, targets, preferred = []) {
    for (const code of [...preferred, "en", "es"]) {
      const own = this.resolve(code);
      if (own && !this.same(own, source) && targets.includes(own)) return own;
    }
    return targets.find((c) => !this.same(c, source)) || null;
  }

  /** Whether `source` → `target` is offered (always true when the service lists no pairs). */
  hasPair(source, target) {
    if (!this.hasPairList) return source !== target;
    const set = this.targets.get(this.resolve(source));
    return Boolean(set && set.has(this.resolve(target)));
  }
}
