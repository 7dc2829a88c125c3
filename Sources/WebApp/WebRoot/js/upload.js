// Sending a file with progress: fetch() reports nothing while a body uploads, XMLHttpRequest
// does. The answer comes back as a fetch Response, so the usual error readers apply to it.

/**
 * POSTs `form` to `url`. Calls `onUpload(fraction)` as the body goes out (0…1) and `onSent()`
 * once all of it has; `signal` aborts it as it aborts fetch (an AbortError).
 */
export function postForm(url, form, { onUpload = () => {}, onSent = () => {}, signal } = {}) {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", url);
    xhr.responseType = "blob"; // an answer may be a file as well as JSON
    xhr.upload.addEventListener("progress", (event) => { if (event.lengthComputable) onUpload(event.loaded / event.total); });
    xhr.upload.addEventListener("load", () => onSent());
    xhr.addEventListener("load", () => {
      // Response's status must be 200…599; XHR gives 0 only on failures, reported below.
      resolve(new Response(xhr.response, { status: xhr.status, statusText: xhr.statusText,
                                           headers: { "Content-Type": xhr.getResponseHeader("Content-Type") || "" } }));
    });
    xhr.addEventListener("error", () => reject(new TypeError("The connection to the Glossa service failed.")));
    xhr.addEventListener("abort", () => reject(new DOMException("Stopped.", "AbortError")));
    if (signal) {
      if (signal.aborted) { reject(new DOMException("Stopped.", "AbortError")); return; }
      signal.addEventListener("abort", () => xhr.abort(), { once: true });
    }
    xhr.send(form);
  });
}
