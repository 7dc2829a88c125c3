// What the app says about a detected language. The server's detector knows more languages than
// this server has pairs for: a language it recognises but cannot translate from must be named as
// such ("German — recognised, but not installed here"), never reported as unidentified, and the
// user must not be sent to a From list that cannot hold it.
import * as api from "./api.js";
import { el } from "./ui.js";

/** Something to tell rather than a failure: the views show it as a notice, not as an error. */
export class Notice extends Error {
  constructor(...parts) {
    super(parts.map((p) => (typeof p === "string" ? p : p.textContent)).join(""));
    this.name = "Notice";
    this.parts = parts; // strings and nodes, for Status.info
  }
}

/** The notice for a language the server recognises but has no installed pair from. The command
 *  names the language alone (`de`, not `de-AT`): that is what `glossa models install` takes. */
export function notInstalled(catalog, code) {
  const base = String(code).split(/[-_]/)[0].toLowerCase();
  return new Notice(`${catalog.languageName(code)} — recognised, but not installed here; an operator can add it with `,
    el("code", {}, `glossa models install ${base}`), ".");
}

/** The catalog's code for a detection when texts in it can be translated here; else throws the
 *  notice that says why not (no language found, or a language without an installed pair). */
export function usableSource(catalog, detection) {
  const code = detection && detection.language;
  if (!code || code === "und") throw new Notice("Glossa could not identify the language of this text. Choose it under From.");
  if (!catalog.isSource(code)) throw notInstalled(catalog, code);
  return catalog.resolve(code);
}

/**
 * When a translation with the source left to the server was refused (400), asks the server what
 * it detected: a recognised language without an installed pair gets its notice instead of the
 * refusal. Any other case, or a failing detection, keeps the original error.
 */
export async function explainRefusal(catalog, text, error, signal) {
  if (!(error instanceof api.ServiceError) || error.status !== 400 || error.keyProblem) return error;
  try {
    const detection = await api.detect(text, signal);
    if (detection.language && detection.language !== "und" && !catalog.isSource(detection.language)) {
      return notInstalled(catalog, detection.language);
    }
  } catch (failure) {
    // A newer request aborted this one: it owns the view now, so nothing is to be shown.
    if (failure.name === "AbortError") return failure;
    // Otherwise the refusal itself is still the best answer.
  }
  return error;
}
