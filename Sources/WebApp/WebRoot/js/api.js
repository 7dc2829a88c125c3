// The Glossa HTTP API as the app uses it: the public Google v2 endpoints, the pair list and the
// streaming batch endpoint. Nothing here is private to the app; any client can do the same.
import { addKey, explainKeyProblem } from "./keys.js";

const V2 = "/language/translate/v2";

/** A failure the user should read: the service's own message when it sent one. */
export class ServiceError extends Error {
  constructor(message, { status = 0, reason = "", detail = "" } = {}) {
    super(message);
    this.name = "ServiceError";
    this.status = status;   // HTTP status; 0 when the service could not be reached
    this.reason = reason;   // Google's errors[0].reason or status, when given
    this.detail = detail;   // a short technical line (HTTP status and reason)
  }
}

/** Reads Google's error envelope {"error": {"code", "message", "errors", "status"}} or APy's. */
export async function errorFrom(response) {
  const text = await response.text();
  let message = "";
  let reason = "";
  try {
    const body = JSON.parse(text);
    if (body && typeof body.message === "string") {
      message = body.message;   // DeepL's envelope (glossaries)
    } else if (body && body.error) {
      message = body.error.message || "";
      reason = (body.error.errors && body.error.errors[0] && body.error.errors[0].reason) || body.error.status || "";
    } else if (body && body.responseDetails) {
      message = body.responseDetails;
    }
  } catch (_) {
    message = text.trim().slice(0, 300);
  }
  if (!message) message = `The service answered ${response.status} ${response.statusText}.`;
  const detail = `HTTP ${response.status}${reason ? " · " + reason : ""}`;
  return new ServiceError(message, { status: response.status, reason, detail });
}

/** fetch() with the caller's key added as `dialect` carries it, and the network failure or a
 *  refusal turned into a readable ServiceError (a refusal about the key in plain words). */
export async function call(path, init = {}, dialect = "google") {
  const headers = { ...(init.headers || {}) };
  const sentKey = addKey(headers, dialect);
  let response;
  try {
    response = await fetch(path, { ...init, headers });
  } catch (error) {
    if (error.name === "AbortError") throw error;
    throw new ServiceError("Cannot reach the Glossa service. Is it still running?", { detail: String(error.message || error) });
  }
  if (!response.ok) throw explainKeyProblem(await errorFrom(response), sentKey);
  return response;
}

async function json(path, init, dialect) {
  const response = await call(path, init, dialect);
  return response.json();
}

function postJSON(path, body, signal, dialect) {
  return json(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body), signal }, dialect);
}

/** The languages, with names in `displayLanguage` when given: [{language, name?}]. */
export async function languages(displayLanguage) {
  const query = displayLanguage ? `?target=${encodeURIComponent(displayLanguage)}` : "";
  const body = await json(`${V2}/languages${query}`);
  return body.data.languages;
}

/** The translation directions: [{source, target, path?}] with the codes as the service writes
 *  them. Glossa's own list (BCP 47, with the pivot path) first; else the APy-style /listPairs. */
export async function pairs() {
  try {
    const body = await json("/glossa/v1/pairs");
    return body.pairs.map((p) => ({ source: p.source, target: p.target, path: p.path }));
  } catch (error) {
    if (!(error instanceof ServiceError) || error.status !== 404) throw error;
  }
  const body = await json("/listPairs");
  return (body.responseData || []).map((p) => ({ source: p.sourceLanguage, target: p.targetLanguage }));
}

/** The most likely language of `text`: {language, confidence, isReliable}. */
export async function detect(text, signal) {
  const body = await postJSON(`${V2}/detect`, { q: [text] }, signal);
  return body.data.detections[0][0];
}

/** Translates `texts` (plain text); an omitted `source` is detected. Returns the translations in order. */
export async function translate(texts, target, source, signal) {
  const request = { q: texts, target, format: "text" };
  if (source) request.source = source;
  const body = await postJSON(V2, request, signal);
  return body.data.translations;
}

/** This caller's glossaries (DeepL's /v2/glossaries): [{glossary_id, name, source_lang, target_lang, entry_count}]. */
export async function glossaries() {
  const body = await json("/v2/glossaries", {}, "deepl");
  return body.glossaries;
}

/** Stores a glossary: {name, source_lang, target_lang, entries, entries_format}. Returns it. */
export function createGlossary(glossary) {
  return postJSON("/v2/glossaries", glossary, undefined, "deepl");
}

/** Translates `texts` (plain text) from `source` with the stored glossary `glossaryId`, through
 *  Glossa's streaming endpoint. Returns [{translatedText}] in order. */
export async function translateWithGlossary(texts, target, source, glossaryId, signal) {
  const response = await call("/glossa/v1/translate/stream", {
    method: "POST", headers: { "Content-Type": "application/json" }, signal,
    body: JSON.stringify({ q: texts, source, target, format: "text", glossaryId }),
  });
  const results = [];
  for (const line of (await response.text()).split("\n")) {
    if (!line.trim()) continue;
    const item = JSON.parse(line);
    if (item.error) throw new ServiceError(item.error.message, { reason: item.error.reason });
    if (item.index !== undefined) results[item.index] = { translatedText: item.translatedText };
  }
  return results;
}

export { V2 };
