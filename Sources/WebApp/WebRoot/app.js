// The Glossa web app: loads what the service offers, then starts the four views.
// Plain ES modules served by Glossa itself: no framework, no build step, nothing from the network.
import { Batch } from "./js/batch.js";
import { Catalog } from "./js/catalog.js";
import { Documents } from "./js/documents.js";
import { Editor } from "./js/editor.js";
import { KeyPanel } from "./js/keypanel.js";
import { onKeyChange } from "./js/keys.js";
import { RoundTrip } from "./js/roundtrip.js";
import { $, ASK_KEY, Status, setUpTabs } from "./js/ui.js";

const views = {};
let shown = "view-editor";
let stopWaitingForKey = null; // while the languages wait for a key: stops reloading on the next one

async function start() {
  if (stopWaitingForKey) { stopWaitingForKey(); stopWaitingForKey = null; }
  const status = new Status($("catalog-status"));
  status.busy("Loading the languages Glossa offers…");
  let catalog;
  try {
    catalog = await Catalog.load(navigator.language);
  } catch (error) {
    status.error(error, () => start());
    // The languages need a key (none, a wrong one, one over its quota): ask for it, and load them
    // again as soon as one is entered, with no page reload. The views are made once, below, so
    // loading again before they exist starts nothing twice.
    if (error.keyProblem && error.keyProblem !== "rate") {
      stopWaitingForKey = onKeyChange((key) => { if (key) start(); });
      document.dispatchEvent(new CustomEvent(ASK_KEY));
    }
    return;
  }
  if (views["view-editor"]) return; // a second load that ran alongside the first: the views exist
  status.clear();
  if (catalog.codes.length === 0) {
    status.info("This Glossa server has no languages installed yet.");
  }
  views["view-editor"] = new Editor(catalog);
  views["view-batch"] = new Batch(catalog);
  views["view-documents"] = new Documents(catalog);
  views["view-roundtrip"] = new RoundTrip(catalog);
  const show = setUpTabs(document.querySelector('[role="tablist"]'), (id) => {
    shown = id;
    history.replaceState(null, "", id === "view-editor" ? location.pathname : `#${id.slice(5)}`);
  });
  const fromHash = location.hash && `view-${location.hash.slice(1)}`;
  if (views[fromHash]) show(fromHash);
  document.addEventListener("keydown", (event) => views[shown] && views[shown].onKey(event));
  document.body.dataset.ready = "true"; // tests and scripts wait for this
}

new KeyPanel();
start();
