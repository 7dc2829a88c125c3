// The document view: drop a file (or pick one), choose the languages, get the same document
// back translated, with its layout kept. Uses LibreTranslate's /translate_file and
// /download_file, which Glossa serves; the file never leaves this server.
import { errorFrom, ServiceError } from "./api.js";
import { $, Status, el, fillLanguageSelect } from "./ui.js";

const ACCEPTED = [".txt", ".html", ".htm", ".rtf", ".docx", ".pptx", ".xlsx", ".odt", ".odp", ".ods"];

export class Documents {
  constructor(catalog) {
    this.catalog = catalog;
    this.status = new Status($("doc-status"));
    this.file = null;
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
  }

  onKey(event) {
    if ((event.ctrlKey || event.metaKey) && event.key === "Enter") { event.preventDefault(); this.run(); }
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
    if (!this.file) { this.status.error(new Error("Drop a document here, or choose one, first.")); return; }
    const target = this.target.value;
    if (!target) { this.status.error(new Error("Choose a language to translate into.")); return; }
    const form = new FormData();
    form.append("file", this.file, this.file.name);
    form.append("source", this.source.value || "auto");
    form.append("target", target);
    const bar = $("doc-bar");
    bar.hidden = false;
    bar.removeAttribute("value"); // indeterminate while the server translates
    $("doc-run").disabled = true;
    $("doc-result").replaceChildren();
    this.status.busy(`Translating ${this.file.name} into ${this.catalog.name(target)}…`);
    try {
      const answer = await fetch("/translate_file", { method: "POST", body: form });
      if (!answer.ok) throw await libreError(answer);
      const { translatedFileUrl } = await answer.json();
      // The server keeps the file for download at this path (same origin: the page's policy
      // allows nothing else); the link saves it under the original name with the language added.
      const name = translatedName(this.file.name, target);
      const link = el("a", { id: "doc-download", href: new URL(translatedFileUrl).pathname, download: name, class: "primary-link" }, `Download ${name}`);
      $("doc-result").replaceChildren(link);
      this.status.clear();
    } catch (error) {
      this.status.error(error, () => this.run());
    } finally {
      bar.hidden = true;
      $("doc-run").disabled = false;
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
