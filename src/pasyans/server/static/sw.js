// The service worker: the site installable and a game in progress shown after a reload
// without network (docs/ui.md, "Offline").
//
// - Static files under /static/ with a content hash in their name never change: from the
//   cache first, kept on first use (the newest 80 are kept).
// - Pages (navigations) and the other static files: from the network, a copy kept per
//   path; without network the kept copy of that path (a page: else the home page's).
// - Never an /api/ answer: game views (and anything that could ever hold a hidden card)
//   are not touched here. The page keeps the last player view itself (offline.js).
const CACHE = "pasyans-v1";
const HASHED = /^\/static\/.+\.[0-9a-f]{10}\.[a-z0-9]+$/;
const PAGES = /^\/(play\/[\w-]+|rules\/[\w-]+|stats|history)?$/;
const KEEP_STATIC = 80;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((c) => c.add("/")).catch(() => {}).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const req = event.request;
  if (req.method !== "GET") return;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin || url.pathname.startsWith("/api/")) return;
  if (HASHED.test(url.pathname)) {
    event.respondWith(fromCacheFirst(req));
  } else if ((req.mode === "navigate" && PAGES.test(url.pathname)) || url.pathname.startsWith("/static/")) {
    event.respondWith(page(req, url));
  }
});

// The page that installed the worker was loaded before it: it names its path and the
// static files it uses, to be kept now (offline.js).
self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (data.type !== "keep" || !Array.isArray(data.urls)) return;
  event.waitUntil(keepAll(data.urls));
});

async function keepAll(urls) {
  const cache = await caches.open(CACHE);
  for (const u of urls) {
    const url = new URL(u, self.location.origin);
    if (url.origin !== self.location.origin || url.pathname.startsWith("/api/")) continue;
    const key = url.origin + url.pathname;
    if (!HASHED.test(url.pathname) && !PAGES.test(url.pathname) && !url.pathname.startsWith("/static/")) continue;
    if (HASHED.test(url.pathname) && (await cache.match(key))) continue;
    try {
      const res = await fetch(key, { credentials: "same-origin" });
      if (res.ok) await cache.put(key, res);
    } catch {
      /* the network went meanwhile: kept on a later visit */
    }
  }
  trim(cache);
}

async function fromCacheFirst(req) {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(req.url.split("?")[0]);
  if (hit) return hit;
  const res = await fetch(req);
  if (res.ok) {
    await cache.put(req.url.split("?")[0], res.clone());
    trim(cache);
  }
  return res;
}

async function page(req, url) {
  const cache = await caches.open(CACHE);
  const key = url.origin + url.pathname;
  try {
    const res = await fetch(req);
    if (res.ok) await cache.put(key, res.clone());
    return res;
  } catch (e) {
    const home = req.mode === "navigate" ? await cache.match(url.origin + "/") : undefined;
    const hit = (await cache.match(key)) || home;
    if (hit) return hit;
    throw e;
  }
}

async function trim(cache) {
  const statics = (await cache.keys()).filter((r) => HASHED.test(new URL(r.url).pathname));
  for (const r of statics.slice(0, Math.max(0, statics.length - KEEP_STATIC))) await cache.delete(r);
}
