// The editor's glossary: add one from a TSV or CSV file (stored by the service, DeepL's
// /v2/glossaries), pick one for the current pair, and the translation keeps its terms.
import * as api from "./api.js";
import { onKeyChange } from "./keys.js";
import { $, Status, el } from "./ui.js";

export class GlossaryControl {
  /** `pair()` gives the editor's {source, target} now (source null when it is detected). */
  constructor(pair) {
    this.pair = pair;
    this.select = $("glossary-select");
    this.file = $("glossary-file");
    this.status = new Status($("glossary-status"));
    this.all = [];
    this.file.addEventListener("change", () => this.upload());
    onKeyChange(() => this.load()); // another key may own other glossaries
    this.load();
  }

  /** The chosen glossary's id, or "" for none. */
  get value() { return this.select.value; }

  async load() {
    try {
      this.all = await api.glossaries();
      this.refresh();
    } catch (error) {
      this.status.error(error, () => this.load());
    }
  }

  /** Offers the glossaries of the current pair; a glossary needs a chosen source. */
  refresh() {
    const { source, target } = this.pair();
    const chosen = this.select.value;
    const fits = this.all.filter((g) => source && target && g.source_lang === base(source) && g.target_lang === base(target));
    this.select.replaceChildren(el("option", { value: "" }, "None"),
      ...fits.map((g) => el("option", { value: g.glossary_id }, `${g.name} (${g.entry_count} ${g.entry_count === 1 ? "term" : "terms"})`)));
    this.select.value = fits.some((g) => g.glossary_id === chosen) ? chosen : "";
    this.select.disabled = fits.length === 0;
    this.file.disabled = !source || !target;
    $("glossary-note").textContent = !source ? "Choose the source language under From to use a glossary."
      : fits.length === 0 ? "No glossary for this pair yet: add one from a file (one term per line: source, tab, target)." : "";
  }

  async upload() {
    const file = this.file.files[0];
    const { source, target } = this.pair();
    if (!file || !source || !target) return;
    this.status.busy(`Adding ${file.name}…`);
    try {
      const entries = await file.text();
      const format = /\.csv$/i.test(file.name) ? "csv" : "tsv";
      const made = await api.createGlossary({ name: file.name, source_lang: base(source), target_lang: base(target), entries, entries_format: format });
      this.all.push(made);
      this.refresh();
      this.select.value = made.glossary_id;
      this.status.info(`Added ${file.name}: ${made.entry_count} ${made.entry_count === 1 ? "term" : "terms"}.`);
    } catch (error) {
      this.status.error(error);
    } finally {
      this.file.value = "";
    }
  }
}

/** A glossary is for a language, not a variant: `ca-valencia` → `ca`. */
function base(code) { return code.split(/[-_]/)[0].toLowerCase(); }
