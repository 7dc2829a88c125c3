// The caller's API key: kept in this browser (localStorage), sent on every call the way that
// call's protocol carries it, and the service's refusals about it turned into plain words.
// Servers that check no key ignore it, so a stored key never gets in the way.

const STORE = "glossa.apiKey";
const listeners = new Set();

/** The stored key, or "" (also when the browser blocks storage: the app then works without one). */
export function currentKey() {
  try { return localStorage.getItem(STORE) || ""; } catch (_) { return ""; }
}

/** Stores `key` (trimmed; "" forgets it) and tells every listener. */
export function saveKey(key) {
  const value = String(key || "").trim();
  try {
    if (value) localStorage.setItem(STORE, value); else localStorage.removeItem(STORE);
  } catch (_) { /* private mode: the key is not kept, and currentKey() says so */ }
  for (const listener of listeners) listener(value);
}

export function forgetKey() { saveKey(""); }

/** Calls `listener(key)` after every change; returns a function that stops it. */
export function onKeyChange(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The first characters of a key, as `glossa keys list` shows them: enough to tell keys apart. */
export function keyHint(key = currentKey()) {
  return key ? `${key.slice(0, 11)}…` : "";
}

/**
 * Adds the key to `headers` as `dialect` carries it: Google v2 and Glossa's own endpoints read
 * `X-Goog-Api-Key`, DeepL reads `Authorization: DeepL-Auth-Key …`. A header, not Google's `key`
 * query parameter, so the key stays out of URLs (and out of the server's and proxies' logs).
 * Returns the key sent ("" when none), which decides how a refusal reads (missing or refused).
 */
export function addKey(headers, dialect = "google") {
  const key = currentKey();
  if (key) {
    if (dialect === "deepl") headers.Authorization = `DeepL-Auth-Key ${key}`;
    else headers["X-Goog-Api-Key"] = key;
  }
  return key;
}

/** What a refusal says about the key: "missing", "refused", "quota", "rate" or null (not a key matter).
 *  Each protocol words it its own way (docs/keys.md, "What callers get"); all are read here. */
export function keyProblem({ status, reason, message }, sentKey) {
  const text = String(message || "");
  // Google v2 "dailyLimitExceeded", Glossa "quota_exceeded", DeepL 456, LibreTranslate "Slowdown: Character quota…".
  if (reason === "dailyLimitExceeded" || reason === "quota_exceeded" || status === 456 || /quota/i.test(text)) return "quota";
  if (reason === "userRateLimitExceeded" || reason === "rateLimitExceeded" || reason === "rate_limited" || status === 429) return "rate";
  const aboutKey = reason === "keyInvalid" || reason === "unauthorized"
    || /api key|auth-key|unregistered callers/i.test(text);
  if (!aboutKey) return null;
  // The same refusal means "none given" or "this one is wrong": only what was sent tells which.
  return sentKey ? "refused" : "missing";
}

const WORDS = {
  missing: "This Glossa server needs an API key, and none is set. Enter the key its operator gave you.",
  refused: "The server refused this API key: it is wrong, or it was revoked. Check it, or ask the operator for a new one.",
  quota: "This API key is over its character quota for this month. Use another key, or ask the operator to raise its limit.",
  rate: "Too many requests for now (the server's rate limit). Wait a moment, then Retry.",
};

/** Rewrites a ServiceError about the key in plain words (the service's own words stay in its
 *  detail) and marks it with `keyProblem`, so a status line can link to the key field. */
export function explainKeyProblem(error, sentKey) {
  const problem = keyProblem(error, sentKey);
  if (!problem) return error;
  error.keyProblem = problem;
  error.detail = [error.detail, error.message].filter(Boolean).join(": ");
  error.message = WORDS[problem];
  return error;
}
