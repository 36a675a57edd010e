// The page's words: the server's message catalogue (src/pasyans/messages, served as JSON
// by GET /api/messages?lang=…), loaded once per page before anything is drawn; the
// language comes from localStorage, else the browser.
import { keep, kept } from "./offline.js";
import { prefs, setPref } from "./prefs.js";

export const LANGS = ["en", "ru"];
const MESSAGES = { en: {}, ru: {} };

/** Fetch the catalogue of every language in one request (the URL the page preloads: the
 * version is in <meta name="pasyans-messages">, so it comes from the browser's cache).
 * Resolves false when it could not be loaded. */
export async function loadMessages() {
  const meta = document.querySelector('meta[name="pasyans-messages"]');
  const v = meta ? meta.content : "";
  try {
    const r = await fetch(`/api/messages?${new URLSearchParams(v ? { lang: "all", v } : { lang: "all" })}`);
    if (!r.ok) throw new Error(`HTTP ${r.status}`);
    const body = await r.json();
    for (const l of LANGS) MESSAGES[l] = (body.messages && body.messages[l]) || {};
    keep("messages", MESSAGES); // for a reload without network (offline.js)
    return true;
  } catch {
    const saved = kept("messages");
    if (!saved || !saved.en || !saved.ru) return false;
    for (const l of LANGS) MESSAGES[l] = saved[l];
    return true;
  }
}

export const RANKS = "A23456789TJQK";
export const SUIT_SYMBOL = { C: "♣", D: "♦", H: "♥", S: "♠" };

export function detectLang() {
  const saved = prefs().lang;
  if (saved === "ru" || saved === "en") return saved;
  const nav = (navigator.languages && navigator.languages[0]) || navigator.language || "en";
  return nav.toLowerCase().startsWith("ru") ? "ru" : "en";
}

let lang = detectLang();

export function getLang() {
  return lang;
}

export function setLang(value) {
  lang = value === "ru" ? "ru" : "en";
  setPref("lang", lang);
  document.documentElement.lang = lang;
}

/** The text of a catalogue code, with {name} placeholders filled from params. The page's
 * own words are named without their "ui." (t("btn.new") is ui.btn.new); any other code
 * in full (t("refusal.stock_empty")). inLang: another language than the page's. An
 * unknown code answers itself. */
export function t(code, params = {}, inLang = lang) {
  const table = MESSAGES[inLang] || MESSAGES.en;
  const key = `ui.${code}` in table ? `ui.${code}` : code;
  const s = table[key] ?? MESSAGES.en[key] ?? code;
  return s.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
}

/** One of a code's forms ("{n} move|{n} moves"; Russian has three) for the number n. */
export function plural(code, n) {
  const forms = t(code).split("|");
  let i;
  if (forms.length === 2) i = n === 1 ? 0 : 1;
  else if (n % 10 === 1 && n % 100 !== 11) i = 0;
  else if (n % 10 >= 2 && n % 10 <= 4 && (n % 100 < 12 || n % 100 > 14)) i = 1;
  else i = 2;
  return forms[Math.min(i, forms.length - 1)].replace("{n}", String(n));
}

/** Pick the right language from an object like {ru: "...", en: "..."}. */
export function pick(obj) {
  if (obj == null) return "";
  if (typeof obj === "string") return obj;
  return obj[lang] ?? obj.en ?? obj.ru ?? "";
}

/** "Queen of hearts" / "Дама червей" for a card code like "QH". */
export function cardName(code) {
  if (!code) return t("card.down");
  return t("card.name", { rank: t(`rank.${code[0]}`), suit: t(`suit.${code[1]}`) });
}

/** A pile's name in words: "Column 3", "Foundation 5, down from King, hearts". */
export function pileName(id, pile) {
  const m = /^([a-z]+?)(\d+)$/.exec(id);
  if (id === "spine1" || id === "spine2") return t(`pile.${id}`);
  if (m && m[1] === "t") return t("pile.column", { n: m[2] });
  if (m && m[1] === "r") return t("pile.reserve", { n: m[2] });
  if (m && m[1] === "f") {
    if (pile && pile.suit && pile.build) {
      return t(`pile.foundation_${pile.build}`, { n: m[2], suit: t(`suit.${pile.suit}`) });
    }
    return t("pile.foundation", { n: m[2] });
  }
  return t(`pile.${id}`);
}

/** Fill every [data-i18n] element of root with its string. */
export function translate(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-title]")) el.title = t(el.dataset.i18nTitle);
  for (const el of root.querySelectorAll("[data-i18n-aria]")) {
    el.setAttribute("aria-label", t(el.dataset.i18nAria));
  }
}
