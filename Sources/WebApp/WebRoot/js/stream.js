// The streaming batch endpoint: POST a batch, read newline-delimited JSON, one line per result as
// soon as it is ready (not in request order), then a terminal line.
import { ServiceError, errorFrom, translate } from "./api.js";
import { addKey, explainKeyProblem } from "./keys.js";

export const STREAM_PATH = "/glossa/v1/translate/stream";

/** Reads a stream of bytes as lines of JSON, calling `onLine` for each. */
async function readLines(body, onLine) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    // A chunk may end in the middle of a line: keep the tail for the next chunk.
    let newline;
    while ((newline = buffer.indexOf("\n")) >= 0) {
      const line = buffer.slice(0, newline).trim();
      buffer = buffer.slice(newline + 1);
      if (line) onLine(JSON.parse(line));
    }
  }
  buffer += decoder.decode();
  if (buffer.trim()) onLine(JSON.parse(buffer.trim()));
}

function messageOf(error) {
  if (!error) return "The service could not translate this text.";
  if (typeof error === "string") return error;
  return error.message || JSON.stringify(error);
}

/**
 * Translates `texts` as a streaming batch. Calls `onResult(index, {translatedText, detectedSourceLanguage})`
 * or `onFailure(index, message)` for each text as its line arrives. Resolves when the terminal line
 * (or the end of the stream) comes; throws a ServiceError when the whole batch is refused.
 * Returns "stream" or, when the server has no streaming endpoint, "chunks" (plain v2 requests).
 */
export async function translateStream(texts, target, source, { onResult, onFailure, signal }) {
  const request = { q: texts, target, format: "text", clientIdentifiers: texts.map((_, i) => String(i)) };
  if (source) request.source = source;
  const headers = { "Content-Type": "application/json", Accept: "application/x-ndjson" };
  const sentKey = addKey(headers); // Glossa's endpoints read Google's X-Goog-Api-Key
  let response;
  try {
    response = await fetch(STREAM_PATH, { method: "POST", headers, body: JSON.stringify(request), signal });
  } catch (error) {
    if (error.name === "AbortError") throw error;
    throw new ServiceError("Cannot reach the Glossa service. Is it still running?", { detail: String(error.message || error) });
  }
  if (response.status === 404 || response.status === 405) {
    await translateInChunks(texts, target, source, { onResult, signal });
    return "chunks";
  }
  if (!response.ok) throw explainKeyProblem(await errorFrom(response), sentKey);
  let terminalError = null;
  const seen = new Set();
  await readLines(response.body, (line) => {
    const index = indexOf(line);
    if (line.error && index === null) { terminalError = line.error; return; }
    if (index === null) return; // the terminal line, or a line this client does not know
    seen.add(index);
    if (line.error) onFailure(index, messageOf(line.error));
    else onResult(index, line);
  });
  if (terminalError) throw new ServiceError(messageOf(terminalError), { reason: terminalError.reason || terminalError.status || "" });
  // Nothing may be lost silently: a text without a line is reported as failed.
  texts.forEach((_, i) => { if (!seen.has(i)) onFailure(i, "The service sent no result for this line."); });
  return "stream";
}

/** The index of a result line: `index`, or the numeric `clientIdentifier` this client sent. */
function indexOf(line) {
  if (Number.isInteger(line.index)) return line.index;
  if (line.clientIdentifier !== undefined && line.clientIdentifier !== null && /^\d+$/.test(String(line.clientIdentifier))) {
    return Number(line.clientIdentifier);
  }
  return null;
}

/** Without the streaming endpoint: plain v2 requests of at most 128 texts (Google's limit). */
async function translateInChunks(texts, target, source, { onResult, signal }) {
  for (let start = 0; start < texts.length; start += 128) {
    const chunk = texts.slice(start, start + 128);
    const results = await translate(chunk, target, source, signal);
    results.forEach((r, i) => onResult(start + i, r));
  }
}
