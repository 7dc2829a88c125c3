// Glossa translation overlay. Include it on any page:
//   <script src="GLOSSA/overlay.js" defer></script>   (GLOSSA: the address of a Glossa server)
// Selecting text shows a "Translate" button (also Alt+Shift+T); elements marked with
// `data-glossa-translate` get one of their own. The translation opens in an overlay with
// "Replace with Translation" and "Copy". The target is the browser's language unless the script
// tag says otherwise (`data-target="fr"`); when Glossa cannot translate into it, the overlay says
// so and lets the reader pick another (remembered in localStorage).
// One classic script (no modules) so that any page can include it; its UI lives in a shadow root
// so that the page's styles and the overlay's cannot affect each other.
(() => {
  "use strict";
  if (window.GlossaOverlay) return;
  const script = document.currentScript;
  const base = new URL(script ? script.src : "/overlay.js", location.href).origin;
  const forcedTarget = script && script.dataset.target;
  const STORE = "glossa-overlay-target";
  const V2 = base + "/language/translate/v2";

  // --- The service -------------------------------------------------------------------------
  async function call(url, form) {
    let response;
    try {
      // A form body keeps the request "simple" for CORS: no preflight on other origins.
      response = await fetch(url, form ? { method: "POST", body: form } : {});
    } catch (error) {
      throw new Error(`Cannot reach the Glossa service at ${base}.`);
    }
    const text = await response.text();
    let body = null;
    try { body = JSON.parse(text); } catch (_) { /* not JSON: reported below */ }
    if (!response.ok) {
      const message = body && body.error && body.error.message;
      throw new Error(message || `The Glossa service answered ${response.status}.`);
    }
    if (!body) throw new Error("The Glossa service sent an answer that is not JSON.");
    return body;
  }

  /** A comparable code: "spa", "es" and "ES" meet (the same rule as the app's catalog.js). */
  const key = (code) => {
    const [language, ...rest] = String(code).replace(/_/g, "-").split("-");
    let base = language;
    try { base = Intl.getCanonicalLocales(language)[0]; } catch (_) { /* not a language subtag */ }
    const tag = [base, ...rest].join("-");
    try { return Intl.getCanonicalLocales(tag)[0].toLowerCase(); } catch (_) { return tag.toLowerCase(); }
  };

  let catalogPromise = null;
  /** Languages (names in the browser's language) and directions, loaded once. */
  function catalog() {
    if (!catalogPromise) {
      catalogPromise = (async () => {
        let languages;
        try {
          languages = (await call(`${V2}/languages?target=${encodeURIComponent(navigator.language)}`)).data.languages;
        } catch (_) {
          languages = (await call(`${V2}/languages`)).data.languages;
        }
        const byKey = new Map(languages.map((l) => [key(l.language), l.language]));
        const resolve = (code) => code && (byKey.get(key(code)) || byKey.get(key(code).split("-")[0]) || null);
        const names = new Map(languages.map((l) => [l.language, l.name || l.language]));
        // Variants may share a name ("Catalan" for ca and ca-iec2017): the code tells them apart.
        const count = new Map();
        for (const name of names.values()) count.set(name, (count.get(name) || 0) + 1);
        for (const [code, name] of [...names]) if (count.get(name) > 1 && code.includes("-")) names.set(code, `${name} (${code})`);
        const targets = new Map();
        let pairs = null;
        try { pairs = (await call(base + "/glossa/v1/pairs")).pairs; } catch (_) {
          try { pairs = (await call(base + "/listPairs")).responseData.map((p) => ({ source: p.sourceLanguage, target: p.targetLanguage })); } catch (_) { /* no pair list: allow all */ }
        }
        for (const p of pairs || []) {
          const s = resolve(p.source); const t = resolve(p.target);
          if (s && t && s !== t) { if (!targets.has(s)) targets.set(s, new Set()); targets.get(s).add(t); }
        }
        const codes = languages.map((l) => l.language);
        const targetsFrom = (s) => pairs ? codes.filter((c) => (targets.get(s) || new Set()).has(c)) : codes.filter((c) => c !== s);
        return { resolve, name: (c) => names.get(resolve(c)) || c, targetsFrom };
      })();
      catalogPromise.catch(() => { catalogPromise = null; }); // let a later try load it again
    }
    return catalogPromise;
  }

  // --- The overlay's own elements, in a shadow root -------------------------------------------
  const CSS = `
    :host { all: initial; }
    .fab, .panel { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif; color: #1c2430; }
    .fab { position: absolute; z-index: 2147483646; background: #1d5fd1; color: #fff; border: 0; border-radius: 6px;
           padding: 4px 10px; cursor: pointer; box-shadow: 0 2px 8px rgba(0,0,0,.25); }
    .panel { position: fixed; z-index: 2147483647; width: min(26rem, calc(100vw - 16px)); max-height: min(70vh, 30rem);
             overflow: auto; background: #fff; border: 1px solid #c9d0da; border-radius: 10px;
             box-shadow: 0 10px 30px rgba(0,0,0,.25); padding: 12px 14px; box-sizing: border-box; }
    .head { display: flex; justify-content: space-between; gap: 8px; align-items: baseline; margin-bottom: 6px; }
    .head strong { font-size: 15px; } .dir { color: #5b6675; font-size: 12.5px; }
    .close { background: none; border: 0; font-size: 18px; cursor: pointer; color: #5b6675; padding: 0 4px; }
    .text { white-space: pre-wrap; overflow-wrap: anywhere; margin: 8px 0; }
    .note { font-size: 13px; color: #5b6675; margin: 6px 0; }
    .error { background: #fdecec; color: #8a1c1c; border: 1px solid #e3a1a1; border-radius: 6px; padding: 6px 8px; margin: 6px 0; }
    .row { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; margin-top: 8px; }
    button.act { border: 1px solid #c9d0da; background: #fff; border-radius: 6px; padding: 5px 10px; cursor: pointer; font: inherit; }
    button.primary { background: #1d5fd1; color: #fff; border-color: #1d5fd1; }
    button:disabled { opacity: .5; cursor: default; }
    select { font: inherit; padding: 3px 4px; border-radius: 6px; border: 1px solid #c9d0da; }
    .spin { display: inline-block; width: 12px; height: 12px; border: 2px solid #c9d0da; border-top-color: #1d5fd1;
            border-radius: 50%; animation: s .8s linear infinite; vertical-align: -2px; margin-right: 6px; }
    @keyframes s { to { transform: rotate(360deg); } }
    @media (max-width: 560px) { .panel { left: 8px !important; right: 8px; top: auto !important; bottom: 8px; width: auto; } }`;

  const ACTION_CSS = `button { font: 12px system-ui, sans-serif; margin-left: 6px; padding: 1px 7px; border: 1px solid #c9d0da;
    border-radius: 5px; background: #fff; color: #1d5fd1; cursor: pointer; }`;

  /** Styles a shadow root. Constructed sheets, not <style>: a page whose content security policy
   *  forbids inline styles still lets the overlay style itself. */
  function style(shadow, css) {
    try {
      const sheet = new CSSStyleSheet();
      sheet.replaceSync(css);
      shadow.adoptedStyleSheets = [sheet];
    } catch (_) {
      const element = document.createElement("style");
      element.textContent = css;
      shadow.append(element);
    }
  }

  const host = document.createElement("glossa-overlay");
  const root = host.attachShadow({ mode: "open" });
  style(root, CSS);
  const h = (tag, props = {}, ...kids) => {
    const n = document.createElement(tag);
    for (const [k, v] of Object.entries(props)) { if (k.startsWith("on")) n.addEventListener(k.slice(2), v); else n.setAttribute(k, v); }
    n.append(...kids.filter((k) => k !== null && k !== undefined));
    return n;
  };
  const fab = h("button", { class: "fab", type: "button", hidden: "" }, "Translate");
  const panel = h("div", { class: "panel", role: "dialog", "aria-label": "Glossa translation", hidden: "" });
  root.append(fab, panel);

  // --- What is being translated ---------------------------------------------------------------
  let job = null;        // {text, range?, element?, nodes?, source, target, translations}
  let selectionRange = null;

  /** The text nodes of an element (only those with words unless `all`), skipping the overlay's
   *  own buttons. Each is translated on its own so that the element's markup stays as it is and
   *  no HTML from anywhere is ever parsed into the page. */
  function textNodes(element, all = false) {
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT, {
      acceptNode: (n) => (n.parentElement && n.parentElement.closest("glossa-overlay, glossa-action, script, style")) || (!all && !n.data.trim())
        ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT,
    });
    const nodes = [];
    while (walker.nextNode()) nodes.push(walker.currentNode);
    return nodes;
  }

  /** Puts the panel below the text it translates, or above it when there is no room below,
   *  so that it never hides that text when the window allows. */
  function place(rect) {
    const height = panel.offsetHeight;
    let top = rect.bottom + 8;
    if (top + height > window.innerHeight - 8) top = rect.top - 8 - height >= 8 ? rect.top - 8 - height : window.innerHeight - 8 - height;
    const left = Math.max(8, Math.min(rect.left, window.innerWidth - panel.offsetWidth - 8));
    panel.style.top = `${Math.max(8, top)}px`;
    panel.style.left = `${left}px`;
  }

  /** The browser's language by its own name ("Deutsch (Deutschland)"), for messages. */
  function browserLanguageName() {
    try { return new Intl.DisplayNames([navigator.language], { type: "language" }).of(navigator.language); } catch (_) { return navigator.language; }
  }

  function render({ busy = null, error = null, retry = null, note = null, choices = null } = {}) {
    const c = job.catalog;
    const dir = job.source ? `${c ? c.name(job.source) : job.source}${job.target ? " → " + (c ? c.name(job.target) : job.target) : ""}` : "";
    const kids = [h("div", { class: "head" }, h("strong", {}, "Translation"), h("span", { class: "dir" }, dir),
      h("button", { class: "close", type: "button", "aria-label": "Close", onclick: close }, "×"))];
    if (busy) kids.push(h("p", { class: "note", role: "status" }, h("span", { class: "spin" }), busy));
    if (error) kids.push(h("div", { class: "error", role: "alert" }, error,
      retry ? h("div", { class: "row" }, h("button", { class: "act", type: "button", onclick: retry }, "Retry")) : null));
    if (note) kids.push(h("p", { class: "note" }, note));
    if (job.translations) kids.push(h("div", { class: "text", lang: job.target }, translatedText()));
    if (choices && choices.length) {
      const select = h("select", { "aria-label": "Translate into", onchange: (e) => choose(e.target.value) },
        h("option", { value: "" }, "Choose a language…"), ...choices.map((code) => h("option", { value: code }, c.name(code))));
      if (job.target && choices.includes(job.target)) select.value = job.target;
      kids.push(h("div", { class: "row" }, h("span", { class: "note" }, "Into:"), select));
    }
    if (job.translations) {
      kids.push(h("div", { class: "row" },
        h("button", { class: "act primary", type: "button", onclick: replace }, "Replace with Translation"),
        h("button", { class: "act", type: "button", onclick: copy }, "Copy")));
    }
    panel.replaceChildren(...kids);
    panel.hidden = false;
    if (job.rect) place(job.rect);
  }

  function translatedText() {
    if (!job.nodes) return job.translations[0];
    let i = 0;
    return textNodes(job.element, true).map((n) => (job.nodes.includes(n) ? spaced(n.data, job.translations[i++]) : n.data))
      .join("").replace(/\s+/g, " ").trim();
  }

  /** The translation with the original's leading and trailing space, so words stay apart. */
  function spaced(original, translation) {
    const lead = original.match(/^\s*/)[0];
    const trail = original.match(/\s*$/)[0];
    return lead + translation.trim() + trail;
  }

  async function open(newJob, rect) {
    job = { ...newJob, rect };
    fab.hidden = true;
    render({ busy: "Translating…" });
    await run();
  }

  async function run() {
    const current = job;
    try {
      current.catalog = await catalog();
      const c = current.catalog;
      if (!current.source) {
        const detection = (await call(`${V2}/detect`, new URLSearchParams({ q: current.text }))).data.detections[0][0];
        current.source = c.resolve(detection.language);
        if (!current.source) throw new Error("Glossa could not identify the language of this text.");
      }
      const choices = c.targetsFrom(current.source);
      if (!current.target) {
        const wanted = [forcedTarget, localStorage.getItem(STORE), ...(navigator.languages || [navigator.language])];
        current.target = wanted.map((w) => c.resolve(w)).find((t) => t && choices.includes(t)) || null;
        if (!current.target) {
          const mine = c.resolve(navigator.language);
          const note = mine === current.source
            ? `This text is already in ${c.name(mine)}. Choose another language:`
            : `Glossa cannot translate ${c.name(current.source)} into ${mine ? c.name(mine) : browserLanguageName()}, your browser's language. Choose another language:`;
          if (job === current) render({ note: choices.length ? note : `Glossa has no language to translate ${c.name(current.source)} into.`, choices });
          return;
        }
      }
      if (job === current) render({ busy: `Translating into ${c.name(current.target)}…`, choices });
      const form = new URLSearchParams({ target: current.target, source: current.source, format: "text" });
      for (const n of current.nodes ? current.nodes.map((x) => x.data) : [current.text]) form.append("q", n);
      const result = await call(V2, form);
      current.translations = result.data.translations.map((t) => t.translatedText);
      if (job === current) render({ choices });
    } catch (error) {
      if (job === current) render({ error: error.message, retry: () => { render({ busy: "Translating…" }); run(); } });
    }
  }

  function choose(code) {
    if (!code || !job) return;
    localStorage.setItem(STORE, code);
    job.target = code;
    job.translations = null;
    render({ busy: "Translating…" });
    run();
  }

  function replace() {
    if (!job || !job.translations) return;
    if (job.nodes) {
      job.nodes.forEach((node, i) => { node.data = spaced(node.data, job.translations[i]); });
      job.element.setAttribute("lang", job.target);
      job.element.dispatchEvent(new CustomEvent("glossa:replaced", { bubbles: true, detail: { target: job.target } }));
    } else {
      const node = document.createTextNode(job.translations[0]);
      job.range.deleteContents();
      job.range.insertNode(node);
      node.parentElement && node.parentElement.dispatchEvent(new CustomEvent("glossa:replaced", { bubbles: true, detail: { target: job.target } }));
    }
    close();
  }

  async function copy(event) {
    const button = event.currentTarget;
    const text = translatedText();
    let ok = false;
    try { await navigator.clipboard.writeText(text); ok = true; } catch (_) {
      // Pages served over plain HTTP have no clipboard API: copy through a hidden text area.
      const area = h("textarea", { readonly: "" });
      area.value = text;
      root.append(area);
      area.select();
      try { ok = document.execCommand("copy"); } catch (_) { ok = false; }
      area.remove();
    }
    button.textContent = ok ? "Copied" : "Copy failed";
    setTimeout(() => { button.textContent = "Copy"; }, 1500);
  }

  function close() { panel.hidden = true; job = null; }

  // --- Triggers: a selection, a marked element, the keyboard ----------------------------------
  function translateSelection() {
    const range = selectionRange;
    const text = range && range.toString().trim();
    if (!text) return;
    open({ text, range }, range.getBoundingClientRect());
  }

  function translateElement(element) {
    const nodes = textNodes(element);
    if (nodes.length === 0) return;
    const source = element.dataset.glossaSource || null;
    open({ text: nodes.map((n) => n.data).join(" "), element, nodes, source }, element.getBoundingClientRect());
  }

  function onSelectionEnd(event) {
    if (event && event.composedPath && event.composedPath().includes(host)) return;
    setTimeout(() => {
      const selection = window.getSelection();
      if (!selection || selection.isCollapsed || !selection.toString().trim()) { fab.hidden = true; return; }
      selectionRange = selection.getRangeAt(0).cloneRange();
      const rect = selectionRange.getBoundingClientRect();
      fab.style.top = `${rect.bottom + window.scrollY + 6}px`;
      fab.style.left = `${Math.max(4, Math.min(rect.right + window.scrollX - 70, document.documentElement.scrollWidth - 90))}px`;
      fab.hidden = false;
    }, 0);
  }

  function mark(element) {
    if (element.querySelector(":scope > glossa-action")) return;
    const action = document.createElement("glossa-action");
    const shadow = action.attachShadow({ mode: "open" });
    style(shadow, ACTION_CSS);
    const button = h("button", { type: "button", "aria-label": "Translate this", title: "Translate with Glossa" }, "Translate");
    button.addEventListener("click", () => translateElement(element));
    shadow.append(button);
    element.append(action);
  }

  fab.addEventListener("mousedown", (e) => e.preventDefault()); // keep the page's selection
  fab.addEventListener("click", translateSelection);
  document.addEventListener("mouseup", onSelectionEnd);
  document.addEventListener("keyup", (e) => { if (e.shiftKey) onSelectionEnd(e); });
  document.addEventListener("keydown", (e) => {
    if (e.altKey && e.shiftKey && (e.key === "T" || e.key === "t")) { onSelectionEnd(); setTimeout(translateSelection, 0); }
    else if (e.key === "Escape" && !panel.hidden) close();
  });

  function boot() {
    document.body.append(host);
    document.querySelectorAll("[data-glossa-translate]").forEach(mark);
    new MutationObserver((records) => records.forEach((r) => r.addedNodes.forEach((n) => {
      if (n.nodeType !== 1) return;
      if (n.matches("[data-glossa-translate]")) mark(n);
      n.querySelectorAll && n.querySelectorAll("[data-glossa-translate]").forEach(mark);
    }))).observe(document.body, { childList: true, subtree: true });
  }
  if (document.body) boot(); else document.addEventListener("DOMContentLoaded", boot);

  /** For pages that want to drive it: GlossaOverlay.translate(element) or .translateSelection(). */
  window.GlossaOverlay = { translate: translateElement, translateSelection, close };
})();
