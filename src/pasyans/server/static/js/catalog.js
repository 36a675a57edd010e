// Tolerant readers for the catalog entries the server sends.
import { pick } from "./i18n.js";

export function title(entry) {
  return pick(entry.titles || entry.title || { ru: entry.title_ru, en: entry.title_en }) || entry.id;
}

export function otherTitle(entry, lang) {
  const titles = entry.titles || entry.title || { ru: entry.title_ru, en: entry.title_en };
  return titles[lang === "ru" ? "en" : "ru"] || "";
}

export function options(entry) {
  return (entry.options || []).map((o) => {
    const raw = o.values || [];
    const values = raw.map((v) => (typeof v === "object" ? String(v.value) : String(v)));
    const legacy = pick(o.value_titles || {});
    const valueTitles = raw.map((v, i) =>
      typeof v === "object" ? pick(v.titles || v.title) || values[i] : (Array.isArray(legacy) && legacy[i]) || values[i],
    );
    return {
      name: o.name,
      values,
      default: String(o.default ?? values[0]),
      title: pick(o.titles || o.title || { ru: o.title_ru, en: o.title_en }) || o.name,
      valueTitles,
    };
  });
}

export function dealKinds(entry) {
  const kinds = entry.deal_kinds || entry.kinds || ["random"];
  return kinds.map((k) => (typeof k === "string" ? k : k.id || k.name));
}

export function defaultKind(entry) {
  return entry.default_kind || entry.default_deal_kind || dealKinds(entry)[0] || "random";
}

/** The rules as sections [{title, paragraphs}] in the chosen language. */
export function rulesSections(entry) {
  const r = pick(entry.rules || entry.rules_text || {});
  if (Array.isArray(r)) return r;
  if (typeof r === "string" && r) return [{ title: "", paragraphs: r.split(/\n\s*\n/) }];
  return [];
}

/** Options from URL search params, defaults filled in, unknown names dropped. */
export function optionsFrom(entry, params) {
  const out = {};
  for (const o of options(entry)) {
    const v = params.get(o.name);
    out[o.name] = v !== null && o.values.includes(v) ? v : o.default;
  }
  return out;
}
