// A rules page: the catalog's rules text for one game, in the chosen language.
import { rulesSections, title } from "./catalog.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";

export function showRules(main, entry) {
  const sections = rulesSections(entry);
  document.title = `${t("rules.title", { title: title(entry) })} · ${t("brand")}`;
  const body = sections.length
    ? sections.map((s) => h("section", {}, s.title ? h("h2", {}, s.title) : null, (s.paragraphs || []).map((p) => h("p", {}, p))))
    : [h("p", {}, t("rules.none"))];
  main.replaceChildren(
    h("h1", {}, t("rules.title", { title: title(entry) })),
    h("div.rules-text", { "data-rules": entry.id }, body),
    h("p", {}, h("a.btn.primary", { href: `/play/${entry.id}` }, t("rules.play", { title: title(entry) }))),
  );
}
