// A rules page: the catalog's rules text for one game, in the chosen language.
import { rulesText, title } from "./catalog.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";

export function showRules(main, entry) {
  const text = rulesText(entry) || t("rules.none");
  document.title = `${t("rules.title", { title: title(entry) })} · ${t("brand")}`;
  const paras = text.split(/\n\s*\n/).map((p) => {
    const lines = p.split("\n");
    const body = h("p");
    lines.forEach((line, i) => {
      if (i) body.append(h("br"));
      body.append(line.replace(/^#+\s*/, ""));
    });
    return /^#/.test(p) ? h("h2", {}, p.replace(/^#+\s*/, "")) : body;
  });
  main.replaceChildren(
    h("h1", {}, t("rules.title", { title: title(entry) })),
    h("div.rules-text", { "data-rules": entry.id }, paras),
    h("p", {}, h("a.btn.primary", { href: `/play/${entry.id}` }, t("rules.play", { title: title(entry) }))),
  );
}
