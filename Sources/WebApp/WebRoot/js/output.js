// The editor's output pane: a translation, the languages it went between, and Copy. It shows a
// translation only together with the text it belongs to; a failure or a notice empties it, so no
// earlier translation is ever left standing under a new error.
import { $, copyText } from "./ui.js";

export class OutputPane {
  constructor() {
    this.node = $("translation");
    this.translatedFor = null; // the source text of the shown translation; null when none is shown
    $("copy").addEventListener("click", () => this.copy());
  }

  /** What the pane shows now. */
  get text() { return this.node.textContent; }

  /** Shows `translation` of `source`, with `meta` ("English → Spanish") under it. */
  show(translation, source, meta) {
    this.node.textContent = translation;
    this.translatedFor = source;
    $("translation-meta").textContent = meta;
    $("copy").disabled = false;
  }

  /** Empties the pane, or shows `unchanged`: text given back that is no translation, not to copy. */
  clear(unchanged = "") {
    this.node.textContent = unchanged;
    this.translatedFor = null;
    $("translation-meta").textContent = "";
    $("copy").disabled = true;
  }

  async copy() {
    const button = $("copy");
    const ok = await copyText(this.node.textContent);
    button.textContent = ok ? "Copied" : "Copy failed";
    setTimeout(() => { button.textContent = "Copy"; }, 1500);
  }
}
