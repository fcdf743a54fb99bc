/** What the portal needs from the browser, checked by feature and not by user agent: the rules
 * run as WebAssembly, survey answers wait on the device in IndexedDB, encrypted with Web Crypto.
 * This runs before wasm-core loads (a browser without WebAssembly could not load it), so it is
 * plain TypeScript. Returns the names of what is missing. */
export function missingFeatures(win: Window = window): string[] {
  const w = win as Window & { WebAssembly?: typeof WebAssembly; Promise?: PromiseConstructor };
  const missing: string[] = [];
  if (typeof w.WebAssembly?.instantiate !== "function") missing.push("WebAssembly");
  if (!w.indexedDB) missing.push("IndexedDB");
  if (!w.crypto?.subtle) missing.push("Web Crypto");
  if (typeof w.fetch !== "function" || typeof w.Promise !== "function") missing.push("fetch");
  return missing;
}

/** Other browsers the dialog offers (spec 01 §2.1). */
export const OTHER_BROWSERS = [
  { name: "Google Chrome", href: "https://www.google.com/chrome/" },
  { name: "Mozilla Firefox", href: "https://www.mozilla.org/firefox/" },
  { name: "Microsoft Edge", href: "https://www.microsoft.com/edge" },
  { name: "Apple Safari", href: "https://www.apple.com/safari/" },
];

export const UNSUPPORTED_TEXT = "Your browser is not compatible with our website.";

/** The unsupported-browser dialog, drawn with the DOM alone (React and the app never load). */
export function showUnsupportedBrowser(root: HTMLElement, missing: string[]) {
  const doc = root.ownerDocument;
  const dialog = doc.createElement("div");
  dialog.className = "unsupported-browser";
  dialog.setAttribute("role", "alertdialog");
  dialog.setAttribute("aria-labelledby", "unsupported-title");
  dialog.setAttribute("aria-describedby", "unsupported-text");
  const title = doc.createElement("h1");
  title.id = "unsupported-title";
  title.textContent = "Unsupported browser";
  const text = doc.createElement("p");
  text.id = "unsupported-text";
  text.textContent = UNSUPPORTED_TEXT;
  const why = doc.createElement("p");
  why.className = "unsupported-why";
  why.textContent = `It lacks: ${missing.join(", ")}. Please use one of these browsers:`;
  const list = doc.createElement("ul");
  for (const browser of OTHER_BROWSERS) {
    const item = doc.createElement("li");
    const link = doc.createElement("a");
    link.href = browser.href;
    link.rel = "noopener noreferrer";
    link.textContent = browser.name;
    item.append(link);
    list.append(item);
  }
  dialog.append(title, text, why, list);
  root.replaceChildren(dialog);
}
