// The Glossa web app: loads what the service offers, then starts the four views.
// Plain ES modules served by Glossa itself: no framework, no build step, nothing from the network.
import { Batch } from "./js/batch.js";
import { Catalog } from "./js/catalog.js";
import { Documents } from "./js/documents.js";
import { Editor } from "./js/editor.js";
import { RoundTrip } from "./js/roundtrip.js";
import { $, Status, setUpTabs } from "./js/ui.js";

const views = {};
let shown = "view-editor";

async function start() {
  const status = new Status($("catalog-status"));
  status.busy("Loading the languages Glossa offers…");
  let catalog;
  try {
    catalog = await Catalog.load(navigator.language);
  } catch (error) {
    status.error(error, () => start());
    return;
  }
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

start();
