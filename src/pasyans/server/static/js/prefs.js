// Settings remembered per browser (localStorage), with safe fallbacks.
const KEY = "pasyans.prefs";

let cache = null;

export function prefs() {
  if (cache) return cache;
  try {
    cache = JSON.parse(localStorage.getItem(KEY) || "{}") || {};
  } catch {
    cache = {};
  }
  return cache;
}

export function setPref(name, value) {
  prefs()[name] = value;
  try {
    localStorage.setItem(KEY, JSON.stringify(cache));
  } catch {
    /* private mode: keep it for this page only */
  }
}

export function reducedMotion() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}
