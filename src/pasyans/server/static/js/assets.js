// Where the UI's own files are: their content-hashed URLs from the manifest the server's
// packer puts in the core script (see src/pasyans/server/assets.py).
const manifest = (globalThis.__pasyans && globalThis.__pasyans.assets) || {};

/** The URL of a file under /static (e.g. "deck.svg", "css/stats.css"). */
export function assetUrl(path) {
  return manifest[path] || `/static/${path}`;
}

/** Adds the style sheet `path` to the page once; resolves when it applies. */
export function loadStyle(path) {
  const href = assetUrl(path);
  const have = document.querySelector(`link[rel="stylesheet"][href="${href}"]`);
  if (have) return Promise.resolve();
  return new Promise((resolve) => {
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = href;
    link.onload = link.onerror = () => resolve();
    document.head.append(link);
  });
}
