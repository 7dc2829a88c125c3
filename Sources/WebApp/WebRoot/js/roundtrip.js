// The round-trip game ("lost in translation"), as `glossa roundtrip` plays it: into the other
// language and back, again and again, until a text comes back that was seen before in the same
// language, or the step limit is reached. Every step is shown as it happens.
import * as api from "./api.js";
import { Notice, usableSource } from "./detection.js";
import { $, Status, el, fillLanguageSelect } from "./ui.js";

export class RoundTrip {
  constructor(catalog) {
    this.catalog = catalog;
    this.status = new Status($("rt-status"));
    this.controller = null;
    this.source = $("rt-source");
    this.via = $("rt-via");
    fillLanguageSelect(this.source, catalog.sources(), catalog, { auto: "Detect language" });
    this.refreshVia();
    this.source.addEventListener("change", () => this.refreshVia());
    $("rt-run").addEventListener("click", () => this.run());
    $("rt-stop").addEventListener("click", () => { if (this.controller) this.controller.abort(); });
  }

  onKey(event) {
    if ((event.ctrlKey || event.metaKey) && event.key === "Enter") { event.preventDefault(); this.run(); }
    else if (event.key === "Escape" && this.controller) this.controller.abort();
  }

  /** Languages to go through: reachable from the source and back. */
  refreshVia(source = this.source.value || null) {
    const via = this.catalog.targetsFrom(source).filter((c) => !source || this.catalog.hasPair(c, source));
    fillLanguageSelect(this.via, via, this.catalog);
  }

  addStep(step, language, text, previous) {
    const item = el("li", { class: previous !== null && text !== previous ? "changed" : "" },
      el("span", { class: "n" }, String(step)), el("span", { class: "lang" }, this.catalog.name(language)),
      el("span", { class: "dst" }, text));
    $("rt-steps-list").append(item);
    return item;
  }

  async run() {
    let text = $("rt-text").value.trim();
    if (!text) { this.status.error(new Error("Type a sentence to play with.")); return; }
    const maxSteps = Math.max(1, Math.min(50, Number($("rt-steps").value) || 12));
    if (this.controller) this.controller.abort();
    const controller = new AbortController();
    this.controller = controller;
    const signal = controller.signal;
    $("rt-steps-list").replaceChildren();
    $("rt-outcome").textContent = "";
    $("rt-run").disabled = true;
    $("rt-stop").hidden = false;
    try {
      let origin = this.source.value;
      if (!origin) {
        this.status.busy("Detecting the language…");
        const detection = await api.detect(text, signal);
        origin = usableSource(this.catalog, detection);
        this.refreshVia(origin);
      }
      const via = this.via.value;
      if (!via || !this.catalog.hasPair(origin, via) || !this.catalog.hasPair(via, origin)) {
        throw new Error(`Glossa cannot go from ${this.catalog.name(origin)} to ${via ? this.catalog.name(via) : "another language"} and back.`);
      }
      this.addStep(0, origin, text, null);
      const seen = new Map([[origin, new Set([text])]]);
      let language = origin;
      let outcome = `Stopped after ${maxSteps} steps; the text was still changing.`;
      for (let step = 1; step <= maxSteps; step += 1) {
        const next = language === origin ? via : origin;
        this.status.busy(`Step ${step}: into ${this.catalog.name(next)}…`);
        const [result] = await api.translate([text], next, language, signal);
        const previous = [...(seen.get(next) || [])].pop() ?? null;
        text = result.translatedText;
        language = next;
        const item = this.addStep(step, language, text, previous);
        if (!seen.has(language)) seen.set(language, new Set());
        // A text seen before in this language means the game has reached a cycle.
        if (seen.get(language).has(text)) {
          item.classList.add("repeat");
          outcome = `The text stopped changing after ${step} ${step === 1 ? "step" : "steps"}.`;
          break;
        }
        seen.get(language).add(text);
      }
      $("rt-outcome").textContent = outcome;
      this.status.clear();
    } catch (error) {
      if (error.name === "AbortError") this.status.info("Stopped.");
      else if (error instanceof Notice) this.status.info(...error.parts);
      else this.status.error(error, () => this.run());
    } finally {
      if (this.controller === controller) this.controller = null;
      $("rt-run").disabled = false;
      $("rt-stop").hidden = true;
    }
  }
}
