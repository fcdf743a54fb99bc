// Service worker for the survey kiosk and patient browsers (issue 5 part 6). The build writes
// this file to dist/sw.js with PRECACHE (every file of the Vite build: the shell, the hashed JS
// and CSS chunks, the .wasm, the manifest and its icons) and VERSION (a hash of that list) filled
// in by the precache plugin (web/sw/precache-plugin.ts), so a started survey reloads without a
// network. API calls are never cached.
const PRECACHE = self.__PRECACHE__;
const CACHE = `portal-shell-${self.__VERSION__}`;
/** Every navigation offline gets the app shell (client-side routing picks the page). */
const SHELL = "/index.html";

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((c) => c.addAll(PRECACHE.map((path) => new Request(path, { cache: "reload" }))))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith("portal-shell-") && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const req = event.request;
  const url = new URL(req.url);
  if (req.method !== "GET" || url.origin !== self.location.origin || url.pathname.startsWith("/api/")) return;
  if (req.mode === "navigate") {
    // The shell: network first (fresh deployments), the precached shell when offline.
    event.respondWith(
      fetch(req).catch(() => caches.open(CACHE).then((c) => c.match(SHELL)).then((r) => r ?? Response.error())),
    );
    return;
  }
  // Build files: hashed names never change, so the precache answers first.
  event.respondWith(
    caches
      .open(CACHE)
      .then((c) => c.match(req, { ignoreSearch: true }))
      .then((hit) => hit ?? fetch(req)),
  );
});
