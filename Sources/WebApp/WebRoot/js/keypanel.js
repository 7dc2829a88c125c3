// The key field in the header: enter a key (kept in this browser), see which one is in use,
// forget it. Status lines ask for it with the "glossa:ask-key" event, so they need not know it.
import { currentKey, forgetKey, keyHint, onKeyChange, saveKey } from "./keys.js";
import { $, ASK_KEY } from "./ui.js";

export class KeyPanel {
  constructor() {
    this.panel = $("key-panel");
    this.input = $("api-key");
    $("key-form").addEventListener("submit", (event) => { event.preventDefault(); this.use(); });
    $("key-forget").addEventListener("click", () => { forgetKey(); this.input.value = ""; this.input.focus(); });
    document.addEventListener(ASK_KEY, () => this.ask());
    onKeyChange(() => this.show());
    this.show();
  }

  /** Opens the panel with the field focused and selected, ready for a key to be typed or pasted. */
  ask() {
    this.panel.open = true;
    this.input.focus();
    this.input.select();
  }

  use() {
    const key = this.input.value.trim();
    if (!key) { $("key-note").textContent = "Paste a key first (it starts with glossa_)."; this.input.focus(); return; }
    saveKey(key);
    this.input.value = "";
    this.panel.open = false; // the summary now names the key in use; the page gets its room back
  }

  /** The summary names the key in use by its hint only: the key itself is never shown again. */
  show() {
    const key = currentKey();
    $("key-summary").textContent = key ? `API key: ${keyHint(key)}` : "API key";
    $("key-forget").disabled = !key;
    $("key-note").textContent = key
      ? `Using ${keyHint(key)}, kept in this browser and sent with every request. Enter another to replace it.`
      : "No key set. A server started with --require-keys needs one (its operator makes it with glossa keys create).";
  }
}
