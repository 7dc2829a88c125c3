// The editor view: type, Detect, pick a target from the searchable list, Translate; copy, swap,
// and translate again into another language without retyping.
import * as api from "./api.js";
import { Notice, explainRefusal, usableSource } from "./detection.js";
import { GlossaryControl } from "./glossary.js";
import { LanguagePicker } from "./picker.js";
import { OutputPane } from "./output.js";
import { $, Status, browserLanguages, el, fillLanguageSelect, percent } from "./ui.js";

export class Editor {
  constructor(catalog) {
    this.catalog = catalog;
    this.detected = null;      // {language, confidence} of the current text, or null
    this.lastAction = null;    // what Retry repeats
    this.controller = null;    // aborts the request in flight when a new one starts
    this.status = new Status($("editor-status"));
    this.text = $("source-text");
    this.output = new OutputPane();
    this.sourceSelect = $("source-select");
    this.picker = new LanguagePicker({
      input: $("target-search"), list: $("target-list"),
      onChange: () => {
        if (this.glossary) this.glossary.refresh();
        if (this.output.translatedFor !== null && this.text.value.trim()) this.translate(); else this.refreshAgain();
      },
    });
    fillLanguageSelect(this.sourceSelect, catalog.sources(), catalog, { auto: "Detect language" });
    this.preferred = browserLanguages();
    this.wire();
    this.refreshTargets();
    this.updateCount();
    // A glossary is for one source: only a chosen one (From), never a detected one.
    this.glossary = new GlossaryControl(() => ({ source: this.sourceSelect.value || null, target: this.picker.value || null }));
  }

  wire() {
    $("detect").addEventListener("click", () => this.detect());
    $("translate").addEventListener("click", () => this.translate());
    $("swap").addEventListener("click", () => this.swap());
    this.sourceSelect.addEventListener("change", () => { this.showDetected(null); this.refreshTargets(); });
    this.text.addEventListener("input", () => {
      // A detection describes the text it was made for; after an edit it may no longer hold.
      if (this.detected) { this.showDetected(null); this.refreshTargets(); }
      this.updateCount();
    });
  }

  /** Keyboard shortcuts while the editor is shown. */
  onKey(event) {
    const mod = event.ctrlKey || event.metaKey;
    if (mod && event.key === "Enter") { event.preventDefault(); if (event.shiftKey) this.detect(); else this.translate(); }
    else if (mod && event.shiftKey && (event.key === "S" || event.key === "s")) { event.preventDefault(); this.swap(); }
  }

  /** The source in force: the chosen one, else the detected one, else null (the service detects). */
  source() { return this.sourceSelect.value || (this.detected && this.detected.language) || null; }

  refreshTargets() {
    const source = this.source();
    const targets = this.catalog.targetsFrom(source);
    this.picker.setOptions(targets, this.catalog, this.catalog.defaultTarget(source, targets, this.preferred), source);
    const note = $("target-note");
    if (!source) note.textContent = "Detect or choose the source to see only the languages it can go into.";
    else if (targets.length === 0) note.textContent = `Glossa has no language to translate ${this.catalog.name(source)} into.`;
    else note.textContent = `${targets.length} ${targets.length === 1 ? "language" : "languages"} from ${this.catalog.name(source)}.`;
    this.refreshAgain();
    if (this.glossary) this.glossary.refresh();
  }

  updateCount() {
    const n = [...this.text.value].length;
    $("char-count").textContent = n ? `${n} ${n === 1 ? "character" : "characters"}` : "";
  }

  showDetected(detection, { confidence = true } = {}) {
    this.detected = detection;
    const box = $("detected");
    if (!detection) { box.replaceChildren(); return; }
    const parts = ["Detected: ", el("strong", {}, this.catalog.name(detection.language))];
    if (confidence && detection.confidence !== undefined) parts.push(` (${percent(detection.confidence)} confidence)`);
    box.replaceChildren(...parts);
  }

  /** Starts a request: aborts the previous one and remembers this one for Retry. */
  begin(action, message) {
    if (this.controller) this.controller.abort();
    this.controller = new AbortController();
    this.lastAction = action;
    this.status.busy(message);
    for (const id of ["detect", "translate"]) $(id).disabled = true;
    return this.controller.signal;
  }

  end(error) {
    for (const id of ["detect", "translate"]) $(id).disabled = false;
    if (!error) { this.status.clear(); return; }
    if (error.name === "AbortError") return;
    if (error instanceof Notice) { this.status.info(...error.parts); return; }
    const retry = this.lastAction;
    this.status.error(error, () => retry.call(this));
  }

  async detect() {
    const text = this.text.value;
    if (!text.trim()) { this.status.error(new Error("Type some text first.")); this.text.focus(); return; }
    const signal = this.begin(this.detect, "Detecting the language…");
    try {
      const detection = await api.detect(text, signal);
      const language = usableSource(this.catalog, detection);
      this.showDetected({ ...detection, language });
      this.refreshTargets();
      this.end(null);
    } catch (error) {
      // An earlier detection must not stand beside a failure for this text.
      if (error.name !== "AbortError" && this.detected) { this.showDetected(null); this.refreshTargets(); }
      this.end(error);
    }
  }

  async translate() {
    const text = this.text.value;
    if (!text.trim()) { this.status.error(new Error("Type some text first.")); this.text.focus(); return; }
    const target = this.picker.value;
    if (!target) { this.status.error(new Error("Choose a language to translate into.")); $("target-search").focus(); return; }
    const source = this.source();
    const signal = this.begin(this.translate, `Translating into ${this.catalog.name(target)}…`);
    try {
      const glossary = this.glossary.value && this.sourceSelect.value ? this.glossary.value : "";
      const [result] = glossary ? await api.translateWithGlossary([text], target, source, glossary, signal)
        : await api.translate([text], target, source, signal);
      if (!source && result.detectedSourceLanguage === "und") {
        // No language in the text (digits, symbols, a link): the service gives it back as it is,
        // which must not pass for a translation, and the user is told what to do if it is one.
        this.notice("Glossa found no language in this text (only numbers, symbols or a link), so it is shown unchanged. If it is in a language, choose it under From.", result.translatedText);
        return;
      }
      if (!source && result.detectedSourceLanguage) {
        const language = this.catalog.resolve(result.detectedSourceLanguage) || result.detectedSourceLanguage;
        this.showDetected({ language }, { confidence: false });
        this.refreshTargets();
      }
      const from = source || (this.detected && this.detected.language);
      if (from && this.catalog.same(from, target) && result.translatedText.trim() === text.trim()) {
        // The text is already in the target language and came back unchanged, which must not
        // pass for a translation (a variant that changes it, ca → ca-valencia, is one). The
        // targets were refreshed for the detected source, so another language is now selected.
        this.notice(`The text is already in ${this.catalog.languageName(target)}: choose another language to translate it into.`);
        return;
      }
      this.output.show(result.translatedText, text, from ? `${this.catalog.name(from)} → ${this.catalog.name(target)}` : this.catalog.name(target));
      this.end(null);
      this.refreshAgain();
    } catch (error) {
      if (error.name === "AbortError") { this.end(error); return; } // a newer request owns the output
      // No earlier translation may stay under this failure, as if it answered this text.
      this.clearTranslation();
      this.end(source ? error : await explainRefusal(this.catalog, text, error, signal));
    }
  }

  /** Ends the request with a notice instead of a translation. */
  notice(text, unchanged = "") {
    this.clearTranslation(unchanged);
    this.end(null);
    this.status.info(text);
  }

  /** Empties the output (or shows `unchanged`, text given back that is no translation). */
  clearTranslation(unchanged = "") {
    this.output.clear(unchanged);
    this.refreshAgain();
  }

  /** The "translate again into" chips: the other targets of the current source. */
  refreshAgain() {
    const box = $("again");
    const source = this.source();
    if (this.output.translatedFor === null || !source) { box.hidden = true; return; }
    const others = this.catalog.targetsFrom(source).filter((c) => c !== this.picker.value);
    box.hidden = others.length === 0;
    $("again-list").replaceChildren(...others.map((code) =>
      el("button", { type: "button", "data-code": code, onclick: () => this.picker.choose(code) }, this.catalog.name(code))));
  }

  /** Swaps source and target and moves the translation into the editor. */
  swap() {
    const source = this.source();
    const target = this.picker.value;
    if (!source || !target) { this.status.error(new Error("Detect or choose the source, and choose a target, to swap them.")); return; }
    if (!this.catalog.hasPair(target, source)) {
      this.status.error(new Error(`Glossa cannot translate ${this.catalog.name(target)} into ${this.catalog.name(source)}.`));
      return;
    }
    const hadTranslation = this.output.translatedFor !== null && this.output.text;
    if (hadTranslation) this.text.value = this.output.text;
    this.clearTranslation();
    fillLanguageSelect(this.sourceSelect, this.catalog.sources(), this.catalog, { auto: "Detect language", keep: target });
    this.showDetected(null);
    this.refreshTargets();
    this.picker.choose(source);
    this.updateCount();
    if (hadTranslation) this.translate();
  }
}
