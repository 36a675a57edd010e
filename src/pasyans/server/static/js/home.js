// The home page: the five games with their titles in both languages and their options.
import { dealKinds, defaultKind, options, otherTitle, title } from "./catalog.js";
import { h } from "./dom.js";
import { getLang, t } from "./i18n.js";

function kindLabel(entry, kind) {
  if (kind === "random" && entry.id === "spine") return t("kind.random_spine");
  return t(`kind.${kind}`);
}

function gameCard(entry) {
  const form = h("form", { "data-game": entry.id });
  for (const o of options(entry)) {
    const fs = h("fieldset", {}, h("legend", {}, o.title));
    o.values.forEach((v, i) => {
      fs.append(h("label", {}, h("input", { type: "radio", name: o.name, value: v, checked: v === o.default }), o.valueTitles[i] ?? v));
    });
    form.append(fs);
  }
  const kinds = dealKinds(entry);
  if (kinds.length > 1) {
    const fs = h("fieldset", {}, h("legend", {}, t("home.deal_kind")));
    for (const k of kinds) {
      fs.append(h("label", {}, h("input", { type: "radio", name: "kind", value: k, checked: k === defaultKind(entry) }), kindLabel(entry, k)));
    }
    form.append(fs);
    // "Solvable only" exists only for some option sets (the catalog lists them).
    const offered = entry.solvable_options;
    const syncKinds = () => {
      const radio = form.querySelector('input[name="kind"][value="solvable"]');
      if (!radio || !Array.isArray(offered)) return;
      const chosen = Object.fromEntries(
        options(entry).map((o) => [o.name, new FormData(form).get(o.name)]),
      );
      const ok = offered.some((set) => Object.entries(set).every(([k, v]) => chosen[k] === v));
      radio.disabled = !ok;
      if (!ok && radio.checked) form.querySelector('input[name="kind"][value="random"]').checked = true;
    };
    form.addEventListener("change", syncKinds);
    syncKinds();
  }
  form.append(
    h(
      "div.actions",
      {},
      h("button.btn.primary", { type: "submit" }, t("home.play")),
      h("a", { href: `/rules/${entry.id}` }, t("home.rules")),
    ),
  );
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const q = new URLSearchParams();
    for (const [k, v] of new FormData(form)) {
      if (k !== "kind" || v !== defaultKind(entry)) q.set(k, v);
    }
    const s = q.toString();
    window.dispatchEvent(new CustomEvent("pasyans:navigate", { detail: `/play/${entry.id}${s ? `?${s}` : ""}` }));
  });
  return h(
    "li.game-card",
    { "data-game": entry.id },
    h("h2", { lang: getLang() }, title(entry)),
    h("p.other", { lang: getLang() === "ru" ? "en" : "ru" }, otherTitle(entry, getLang())),
    form,
  );
}

export function showHome(main, games) {
  document.title = t("brand");
  main.replaceChildren(
    h("h1", {}, t("home.title")),
    h("p", {}, t("home.lead")),
    h("ul.games", {}, games.map(gameCard)),
  );
}
