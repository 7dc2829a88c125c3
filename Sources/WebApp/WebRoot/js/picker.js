// A searchable language list (an ARIA combobox over a listbox): type to filter by name or code,
// arrow keys to move, Enter or a click to choose.
import { el } from "./ui.js";

/** Lower case without accents, so "espanol" finds "español". */
function fold(text) {
  return String(text).normalize("NFD").replace(/\p{Diacritic}/gu, "").toLowerCase();
}

export class LanguagePicker {
  constructor({ input, list, onChange }) {
    this.input = input;
    this.list = list;
    this.onChange = onChange;
    this.codes = [];
    this.catalog = null;
    this.selected = null;
    this.active = -1;
    input.addEventListener("input", () => { this.active = -1; this.render(); });
    input.addEventListener("keydown", (event) => this.key(event));
    list.addEventListener("click", (event) => {
      const item = event.target.closest("li[data-code]");
      if (item) this.choose(item.dataset.code);
    });
  }

  /** Offers `codes`; keeps the selection when it is still offered, else selects `fallback`. */
  setOptions(codes, catalog, fallback, source = null) {
    this.codes = codes;
    this.catalog = catalog;
    this.source = source;
    if (!codes.includes(this.selected)) this.selected = codes.includes(fallback) ? fallback : null;
    this.render();
  }

  get value() { return this.selected; }

  /** Selects `code` (when offered) and tells the listener. */
  choose(code) {
    if (!this.codes.includes(code)) return;
    const changed = code !== this.selected;
    this.selected = code;
    this.input.value = "";
    this.active = -1;
    this.render();
    if (changed) this.onChange(code);
  }

  visible() {
    const query = fold(this.input.value.trim());
    if (!query) return this.codes;
    return this.codes.filter((c) => fold(this.catalog.name(c)).includes(query) || fold(c).startsWith(query));
  }

  /** " via Spanish" for a pair that goes through another language, else nothing. */
  viaNote(code) {
    const via = this.source ? this.catalog.via(this.source, code) : [];
    return via.length ? el("span", { class: "via" }, ` via ${via.map((c) => this.catalog.name(c)).join(", ")}`) : null;
  }

  render() {
    const shown = this.visible();
    const items = shown.map((code, i) => el("li", {
      role: "option", id: `lang-option-${code}`, "data-code": code,
      "aria-selected": String(code === this.selected), class: i === this.active ? "active" : "",
    }, el("span", { class: "name" }, this.catalog.name(code), this.viaNote(code)), el("span", { class: "code" }, code)));
    if (items.length === 0) {
      items.push(el("li", { class: "empty", "aria-disabled": "true" },
        this.codes.length ? "No language matches." : "No language to translate into from this source."));
    }
    this.list.replaceChildren(...items);
    const current = this.list.querySelector(".active") || this.list.querySelector('[aria-selected="true"]');
    if (current) {
      this.input.setAttribute("aria-activedescendant", current.id);
      // Scroll the list only (scrollIntoView would scroll the whole page too, on phones).
      const top = current.offsetTop;
      const bottom = top + current.offsetHeight;
      if (top < this.list.scrollTop) this.list.scrollTop = top;
      else if (bottom > this.list.scrollTop + this.list.clientHeight) this.list.scrollTop = bottom - this.list.clientHeight;
    } else {
      this.input.removeAttribute("aria-activedescendant");
    }
  }

  key(event) {
    const shown = this.visible();
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      if (shown.length === 0) return;
      const step = event.key === "ArrowDown" ? 1 : -1;
      this.active = (this.active + step + shown.length) % shown.length;
      this.render();
    } else if (event.key === "Enter" && !event.ctrlKey && !event.metaKey) {
      event.preventDefault();
      const pick = shown[this.active >= 0 ? this.active : 0];
      if (pick) this.choose(pick);
    } else if (event.key === "Escape") {
      this.input.value = "";
      this.active = -1;
      this.render();
    }
  }
}
