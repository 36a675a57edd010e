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
  return (entry.options || []).map((o) => ({
    name: o.name,
    values: o.values || [],
    default: o.default ?? (o.values || [])[0],
    title: pick(o.titles || o.title || { ru: o.title_ru, en: o.title_en }) || o.name,
    valueTitles: (() => {
      const vt = o.value_titles || o.values_titles || { ru: o.value_titles_ru, en: o.value_titles_en };
      const list = pick(vt);
      return Array.isArray(list) && list.length ? list : o.values;
    })(),
  }));
}

export function dealKinds(entry) {
  const kinds = entry.deal_kinds || entry.kinds || ["random"];
  return kinds.map((k) => (typeof k === "string" ? k : k.id || k.name));
}

export function defaultKind(entry) {
  return entry.default_kind || entry.default_deal_kind || dealKinds(entry)[0] || "random";
}

export function rulesText(entry) {
  return pick(entry.rules || entry.rules_text || { ru: entry.rules_ru, en: entry.rules_en });
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
