// The batch view: one text per line, sent as one streaming batch; each row fills in when its
// result arrives, whatever the order.
import { translateStream } from "./stream.js";
import { $, Status, browserLanguages, el, fillLanguageSelect } from "./ui.js";

export class Batch {
  constructor(catalog) {
    this.catalog = catalog;
    this.status = new Status($("batch-status"));
    this.controller = null;
    this.source = $("batch-source");
    this.target = $("batch-target");
    fillLanguageSelect(this.source, catalog.sources(), catalog, { auto: "Detect per line" });
    this.refreshTargets();
    this.source.addEventListener("change", () => this.refreshTargets());
    $("batch-run").addEventListener("click", () => this.run());
    $("batch-cancel").addEventListener("click", () => { if (this.controller) this.controller.abort(); });
  }

  onKey(event) {
    if ((event.ctrlKey || event.metaKey) && event.key === "Enter") { event.preventDefault(); this.run(); }
    else if (event.key === "Escape" && this.controller) this.controller.abort();
  }

  refreshTargets() {
    const source = this.source.value || null;
    const targets = this.catalog.targetsFrom(source);
    fillLanguageSelect(this.target, targets, this.catalog, { fallback: this.catalog.defaultTarget(source, targets, browserLanguages()) });
  }

  async run() {
    const lines = $("batch-text").value.split("\n").map((l) => l.replace(/\r$/, ""));
    // Blank lines are not sent (the service would refuse them), and the user is told how many.
    const texts = lines.filter((l) => l.trim());
    const skipped = lines.length - texts.length;
    const target = this.target.value;
    if (texts.length === 0) { this.status.error(new Error("Paste or type some lines first, one text per line.")); return; }
    if (!target) { this.status.error(new Error("Choose a language to translate into.")); return; }
    if (this.controller) this.controller.abort();
    const controller = new AbortController();
    this.controller = controller;

    const rows = texts.map((text, i) => el("li", { class: "pending", "data-index": String(i) },
      el("span", { class: "n" }, String(i + 1)), el("span", { class: "src" }, text), el("span", { class: "dst" }, "waiting…")));
    $("batch-results").replaceChildren(...rows);
    let done = 0;
    let same = 0; // lines already in the target language: given back, not translated
    const bar = $("batch-bar");
    bar.hidden = false;
    bar.max = texts.length;
    bar.value = 0;
    const progress = () => {
      bar.value = done;
      $("batch-progress").textContent = `${done} of ${texts.length} done`
        + (same ? ` · ${same} already in ${this.catalog.languageName(target)}` : "")
        + (skipped ? ` · ${skipped} blank ${skipped === 1 ? "line" : "lines"} skipped` : "");
    };
    const fill = (index, text, failed, kind = failed ? "failed" : "done") => {
      const row = rows[index];
      if (!row || !row.classList.contains("pending")) return;
      row.className = kind;
      if (kind === "same") same += 1;
      row.querySelector(".dst").textContent = text;
      done += 1;
      progress();
    };
    progress();
    $("batch-run").disabled = true;
    $("batch-cancel").hidden = false;
    this.status.busy(`Translating ${texts.length} ${texts.length === 1 ? "line" : "lines"} into ${this.catalog.name(target)}…`);
    try {
      const mode = await translateStream(texts, target, this.source.value || null, {
        signal: controller.signal,
        onResult: (index, result) => {
          const from = result.detectedSourceLanguage || result.sourceLanguage;
          if (from === "und") fill(index, "No language found in this line: not translated.", false, "same");
          else if (from && this.catalog.same(from, target) && result.translatedText.trim() === texts[index].trim()) fill(index, `Already in ${this.catalog.languageName(target)}: not translated.`, false, "same");
          else fill(index, result.translatedText, false);
        },
        onFailure: (index, message) => fill(index, message, true),
      });
      if (mode === "chunks") this.status.info("This server has no streaming endpoint: the lines were translated in plain requests.");
      else this.status.clear();
    } catch (error) {
      if (error.name === "AbortError") this.status.info(`Stopped: ${done} of ${texts.length} lines were translated.`);
      else this.status.error(error, () => this.run());
    } finally {
      if (this.controller === controller) this.controller = null;
      $("batch-run").disabled = false;
      $("batch-cancel").hidden = true;
    }
  }
}
