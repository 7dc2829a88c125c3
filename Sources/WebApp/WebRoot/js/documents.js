// The document view: drop a file (or pick one), choose the languages, get the same document
// back translated, with its layout kept. Uses LibreTranslate's /translate_file and
// /download_file, which Glossa serves; the file never leaves this server.
import { errorFrom, ServiceError } from "./api.js";
import { currentKey, explainKeyProblem } from "./keys.js";
import { $, Status, el, fillLanguageSelect, percent } from "./ui.js";
import { postForm } from "./upload.js";

const ACCEPTED = [".txt", ".html", ".htm", ".rtf", ".docx", ".pptx", ".xlsx", ".odt", ".odp", ".ods"];

export class Documents {
  constructor(catalog) {
    this.catalog = catalog;
    this.status = new Status($("doc-status"));
    this.file = null;
    this.controller = null; // the upload in flight, which Stop aborts
    this.source = $("doc-source");
    this.target = $("doc-target");
    fillLanguageSelect(this.source, catalog.sources(), catalog, { auto: "Detect" });
    this.refreshTargets();
    this.source.addEventListener("change", () => this.refreshTargets());
    const drop = $("doc-drop");
    const input = $("doc-file");
    input.accept = ACCEPTED.join(",");
    input.addEventListener("change", () => this.choose(input.files[0]));
    drop.addEventListener("click", () => input.click());
    drop.addEventListener("keydown", (event) => { if (event.key === "Enter" || event.key === " ") { event.preventDefault(); input.click(); } });
    drop.addEventListener("dragover", (event) => { event.preventDefault(); drop.classList.add("over"); });
    drop.addEventListener("dragleave", () => drop.classList.remove("over"));
    drop.addEventListener("drop", (event) => {
      event.preventDefault();
      drop.classList.remove("over");
      if (event.dataTransfer.files.length) this.choose(event.dataTransfer.files[0]);
    });
    $("doc-run").addEventListener("click", () => this.run());
    $("doc-stop").addEventListener("click", () => this.stop());
  }

  onKey(event) {
    if ((event.ctrlKey || event.metaKey) && event.key === "Enter") { event.preventDefault(); this.run(); }
    else if (event.key === "Escape") this.stop();
  }

  stop() { if (this.controller) this.controller.abort(); }

  /** The bar and the words under it: a percentage while the file goes up, then the time the
   *  server has spent (it translates in one request and reports no progress of its own). */
  progress(fraction) {
    const bar = $("doc-bar");
    if (fraction !== null) {
      bar.value = fraction;
      $("doc-progress").textContent = `Sending: ${percent(fraction)}`;
      return;
    }
    bar.removeAttribute("value"); // indeterminate: nothing measures the server's part
    clearInterval(this.timer);
    const started = Date.now();
    const tick = () => { $("doc-progress").textContent = `Sent · translating on the server: ${Math.round((Date.now() - started) / 1000)} s`; };
    tick();
    this.timer = setInterval(tick, 1000);
  }

  refreshTargets() {
    const targets = this.catalog.targetsFrom(this.source.value || null);
    fillLanguageSelect(this.target, targets, this.catalog, { fallback: this.catalog.resolve(navigator.language) });
  }

  choose(file) {
    this.file = file || null;
    $("doc-result").replaceChildren();
    if (!file) { $("doc-name").textContent = "No file chosen"; return; }
    $("doc-name").textContent = `${file.name} (${Math.max(1, Math.round(file.size / 1024))} KB)`;
    const dot = file.name.lastIndexOf(".");
    const ext = dot >= 0 ? file.name.slice(dot).toLowerCase() : "";
    if (!ACCEPTED.includes(ext)) {
      this.status.error(new Error(`${file.name}: Glossa translates ${ACCEPTED.join(", ")} documents.`));
    } else {
      this.status.clear();
    }
  }

  async run() {
    if (this.controller) return; // one document at a time: Stop ends the one in flight
    if (!this.file) { this.status.error(new Error("Drop a document here, or choose one, first.")); return; }
    const target = this.target.value;
    if (!target) { this.status.error(new Error("Choose a language to translate into.")); return; }
    const file = this.file; // the one sent, whatever is chosen meanwhile
    const form = new FormData();
    form.append("file", file, file.name);
    form.append("source", this.source.value || "auto");
    form.append("target", target);
    // LibreTranslate, whose /translate_file this is, reads the caller's key from the form.
    const key = currentKey();
    if (key) form.append("api_key", key);
    const controller = new AbortController();
    this.controller = controller;
    $("doc-bar").hidden = false;
    $("doc-run").disabled = true;
    $("doc-stop").hidden = false;
    $("doc-result").replaceChildren(); // an earlier result must not stand beside this request's outcome
    this.status.busy(`Translating ${file.name} into ${this.catalog.name(target)}…`);
    this.progress(0);
    try {
      const answer = await postForm("/translate_file", form, {
        signal: controller.signal, onUpload: (f) => this.progress(f), onSent: () => this.progress(null),
      });
      if (!answer.ok) throw explainKeyProblem(await libreError(answer), key);
      const { translatedFileUrl } = await answer.json();
      // The server keeps the file for download at this path (same origin: the page's policy
      // allows nothing else); the link saves it under the original name with the language added.
      const name = translatedName(file.name, target);
      const link = el("a", { id: "doc-download", href: new URL(translatedFileUrl).pathname, download: name, class: "primary-link" }, `Download ${name}`);
      $("doc-result").replaceChildren(link);
      this.status.clear();
    } catch (error) {
      if (error.name === "AbortError") this.status.info(`Stopped: ${file.name} was not translated.`);
      else if (error instanceof TypeError) this.status.error(new ServiceError("Cannot reach the Glossa service. Is it still running?"), () => this.run());
      else this.status.error(error, () => this.run());
    } finally {
      clearInterval(this.timer);
      if (this.controller === controller) this.controller = null;
      $("doc-bar").hidden = true;
      $("doc-progress").textContent = "";
      $("doc-run").disabled = false;
      $("doc-stop").hidden = true;
    }
  }
}

/** LibreTranslate's {"error": "…"} envelope as a readable error. */
async function libreError(response) {
  const copy = response.clone();
  try {
    const body = await copy.json();
    if (body && typeof body.error === "string") return new ServiceError(body.error, { status: response.status, detail: `HTTP ${response.status}` });
  } catch (_) { /* not JSON */ }
  return errorFrom(response);
}

/** report.docx translated into es → report.es.docx */
function translatedName(name, target) {
  const dot = name.lastIndexOf(".");
  return dot > 0 ? `${name.slice(0, dot)}.${target}${name.slice(dot)}` : `${name}.${target}`;
}
