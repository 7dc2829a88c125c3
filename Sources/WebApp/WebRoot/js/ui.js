// Small DOM helpers shared by the views: status lines (progress and errors with a retry),
// language selects, copying, tabs.

export const $ = (id) => document.getElementById(id);

/** The event that opens the key field (keypanel.js listens): a status line asks for a key
 *  without knowing where the field is. */
export const ASK_KEY = "glossa:ask-key";
const KEY_LINKS = { missing: "Enter a key", refused: "Change the key", quota: "Use another key" };

export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key in node) node[key] = value;
    else node.setAttribute(key, value);
  }
  for (const child of children) if (child !== null && child !== undefined) node.append(child);
  return node;
}

/** A status area: shows progress, a readable error with Retry, or nothing. */
export class Status {
  constructor(node) { this.node = node; }

  clear() { this.node.className = "status"; this.node.replaceChildren(); }

  busy(text) {
    this.node.className = "status busy";
    this.node.replaceChildren(el("span", { class: "spinner", "aria-hidden": "true" }), el("span", { class: "message" }, text));
  }

  /** A notice: text, or strings and nodes (a <code> command) in order. */
  info(...parts) {
    this.node.className = "status info";
    this.node.replaceChildren(el("span", { class: "message" }, ...parts));
  }

  /** The error's own message (the service's, when it sent one) and a Retry that calls `retry`. */
  error(error, retry) {
    this.node.className = "status error";
    const message = el("span", { class: "message" }, error.message || String(error));
    if (error.detail) message.append(" ", el("span", { class: "detail" }, `(${error.detail})`));
    const children = [el("span", { "aria-hidden": "true" }, "⚠"), message];
    if (KEY_LINKS[error.keyProblem]) children.push(keyLink(KEY_LINKS[error.keyProblem]));
    if (retry) children.push(el("button", { type: "button", class: "retry", onclick: () => retry() }, "Retry"));
    this.node.replaceChildren(...children);
  }
}

/** A link to the key field: a real link (#api-key) that also opens the field and focuses it. */
function keyLink(text) {
  return el("a", { href: "#api-key", class: "key-link", onclick: (event) => {
    event.preventDefault();
    document.dispatchEvent(new CustomEvent(ASK_KEY));
  } }, text);
}

/** Fills a <select> with language codes shown by name; keeps the value when still offered. */
export function fillLanguageSelect(select, codes, catalog, { auto = null, keep = select.value, fallback = null } = {}) {
  const options = [];
  if (auto) options.push(el("option", { value: "" }, auto));
  for (const code of codes) options.push(el("option", { value: code }, catalog.name(code)));
  select.replaceChildren(...options);
  let value = auto ? "" : codes[0] || "";
  for (const candidate of [keep, fallback]) {
    if (candidate === "" && auto) { value = ""; break; }
    if (candidate && codes.includes(candidate)) { value = candidate; break; }
  }
  select.value = value;
}

/** The browser's languages, most preferred first. */
export function browserLanguages() {
  return navigator.languages && navigator.languages.length ? [...navigator.languages] : [navigator.language];
}

/** Copies text to the clipboard; falls back to a hidden textarea where the API is unavailable. */
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch (_) {
    const area = el("textarea", { value: text, readOnly: true });
    area.className = "sr-only";
    document.body.append(area);
    area.select();
    const ok = document.execCommand("copy");
    area.remove();
    return ok;
  }
}

/** Wires an ARIA tab list: click or arrow keys switch the panel. Calls `onShow(panelId)`. */
export function setUpTabs(tablist, onShow) {
  const tabs = [...tablist.querySelectorAll('[role="tab"]')];
  const select = (tab, focus) => {
    for (const t of tabs) {
      const on = t === tab;
      t.setAttribute("aria-selected", String(on));
      t.tabIndex = on ? 0 : -1;
      $(t.getAttribute("aria-controls")).hidden = !on;
    }
    if (focus) tab.focus();
    onShow(tab.getAttribute("aria-controls"));
  };
  tabs.forEach((tab, i) => {
    tab.addEventListener("click", () => select(tab, false));
    tab.addEventListener("keydown", (event) => {
      const step = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
      if (step) { event.preventDefault(); select(tabs[(i + step + tabs.length) % tabs.length], true); }
    });
  });
  return (panelId) => select(tabs.find((t) => t.getAttribute("aria-controls") === panelId), false);
}

/** The percentage text of a confidence in 0…1. */
export function percent(value) {
  return `${Math.round(Math.max(0, Math.min(1, Number(value) || 0)) * 100)}%`;
}
