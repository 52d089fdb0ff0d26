// Fanorona's service worker: keeps the game's files after the first visit so that it starts with no network,
// and brings in a new version when a new bundle is deployed.
//
// web/build.sh stamps BUILD with a hash of the module: a new deploy is a new sw.js, which the browser installs
// as a new worker (with its own cache) next to the one that runs the page. The new worker waits until the page
// asks it to take over (the page offers a reload: see "update" in index.html), or until no page of the old
// version is open; once active it deletes the old version's cache. Every file is served from this version's
// cache first, so the files of one version never mix with another's.
const BUILD = "dev";
const CACHE = "fanorona-" + BUILD;
const FILES = [
  "index.html", "fanorona.js", "fanorona_bg.wasm", "audio-unlock.js", "manifest.webmanifest",
  "engine-worker.js", "fanorona_engine.js", "fanorona_engine_bg.wasm",
  "icons/icon-32.png", "icons/icon-192.png", "icons/icon-512.png", "icons/icon-maskable-192.png",
  "icons/icon-maskable-512.png", "icons/apple-touch-icon.png",
];

self.addEventListener("install", event => {
  // "no-cache": revalidated with the server (a 304 costs nothing), so that no stale copy from the HTTP cache
  // slips into a new version's cache.
  event.waitUntil(caches.open(CACHE).then(cache => cache.addAll(FILES.map(f => new Request(f, { cache: "no-cache" })))));
});

self.addEventListener("message", event => {
  if (event.data === "update") self.skipWaiting();
});

self.addEventListener("activate", event => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) {
      if (key.startsWith("fanorona-") && key !== CACHE) await caches.delete(key);
    }
    // The first visit's page is controlled from now on (so that it works offline without a reload).
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", event => {
  const req = event.request;
  if (req.method !== "GET" || new URL(req.url).origin !== self.location.origin) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    // Every page address (with its options: ?level=5) is the one index.html.
    const hit = req.mode === "navigate"
      ? await cache.match("index.html")
      : await cache.match(req, { ignoreSearch: true });
    return hit || fetch(req);
  })());
});
