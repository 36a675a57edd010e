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

/** A deal link's parameter naming the generator version of its solvable deal
 * (docs/api.md, "Old deals and links"). */
export const GEN_PARAM = "gen";

/** The version a solvable deal link without `gen` means: the last one before links
 * carried it, so links shared earlier keep their layouts. */
export const LINK_GENERATOR_BEFORE = 3;

/** The generator version a link asks for: null without a deal number (a new deal, by the
 * current version); else `gen` as a number, or as written when it is none (the server
 * refuses it), or LINK_GENERATOR_BEFORE without it. */
export function linkGenerator(params, deal) {
  if (deal === null) return null;
  const gen = params.get(GEN_PARAM);
  if (gen === null) return LINK_GENERATOR_BEFORE;
  return /^\d{1,9}$/.test(gen) ? Number(gen) : gen;
}

/** Set `gen` on link params `q` for a solvable game or item that names its version. */
export function setLinkGenerator(q, item) {
  if (item && item.kind === "solvable" && item.generator != null) q.set(GEN_PARAM, String(item.generator));
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
