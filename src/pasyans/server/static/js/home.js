// The home page: "Continue" for each game in progress, then one tile per game with a small
// drawing of its table, its title in both languages and a line about it. "Play" starts at
// once with the options used last time; the options sit in a disclosure.
import * as api from "./api.js";
import { dealKinds, defaultKind, options, otherTitle, setLinkGenerator, title } from "./catalog.js";
import { formatTime, h } from "./dom.js";
import { getLang, t } from "./i18n.js";
import { dailySection } from "./daily.js";
import { miniTable } from "./home-mini.js";
import { prefs, setPref } from "./prefs.js";

export const DIFFICULTIES = ["easy", "medium", "hard"];
export const DEFAULT_DIFFICULTY = "medium";

function kindLabel(entry, kind) {
  if (kind === "random" && entry.id === "spine") return t("kind.random_spine");
  return t(`kind.${kind}`);
}

/** The choice last used for a game: {options, kind, difficulty} (the table saves it). */
export function lastChoice(entry) {
  const saved = prefs()[`choice:${entry.id}`] || {};
  const opts = {};
  for (const o of options(entry)) {
    const v = saved.options && saved.options[o.name];
    opts[o.name] = o.values.includes(v) ? v : o.default;
  }
  const kind = dealKinds(entry).includes(saved.kind) ? saved.kind : defaultKind(entry);
  const difficulty = DIFFICULTIES.includes(saved.difficulty) ? saved.difficulty : DEFAULT_DIFFICULTY;
  return { options: opts, kind, difficulty };
}

export function saveChoice(entry, choice) {
  setPref(`choice:${entry.id}`, choice);
}

/** The table's URL for a choice: /play/<game>?<options>[&kind=][&difficulty=]; with a
 * deal number, `game` (an unfinished game) gives a solvable deal's `gen`. */
export function playPath(entry, choice, deal = null, game = null) {
  const q = new URLSearchParams();
  if (deal !== null) q.set("deal", String(deal));
  if (choice.kind === "solvable" && dealKinds(entry).length > 1) q.set("difficulty", choice.difficulty);
  for (const [k, v] of Object.entries(choice.options)) q.set(k, v);
  if (choice.kind !== defaultKind(entry)) q.set("kind", choice.kind);
  if (deal !== null) setLinkGenerator(q, game);
  const s = q.toString();
  return `/play/${entry.id}${s ? `?${s}` : ""}`;
}

function go(path) {
  window.dispatchEvent(new CustomEvent("pasyans:navigate", { detail: path }));
}

function optionsForm(entry, choice, onChange) {
  const form = h("form.options", { "data-game": entry.id });
  for (const o of options(entry)) {
    const fs = h("fieldset", {}, h("legend", {}, o.title));
    o.values.forEach((v, i) => {
      fs.append(h("label", {}, h("input", { type: "radio", name: o.name, value: v, checked: v === choice.options[o.name] }), o.valueTitles[i] ?? v));
    });
    form.append(fs);
  }
  const kinds = dealKinds(entry);
  let difficulty = null;
  if (kinds.length > 1) {
    const fs = h("fieldset", {}, h("legend", {}, t("home.deal_kind")));
    for (const k of kinds) {
      fs.append(h("label", {}, h("input", { type: "radio", name: "kind", value: k, checked: k === choice.kind }), kindLabel(entry, k)));
    }
    form.append(fs);
    difficulty = h(
      "select",
      { name: "difficulty", "data-difficulty": "" },
      DIFFICULTIES.map((d) => h("option", { value: d, selected: d === choice.difficulty }, t(`difficulty.${d}`))),
    );
    form.append(h("label.difficulty", {}, `${t("home.difficulty")} `, difficulty));
  }
  const read = () => {
    const data = new FormData(form);
    const opts = {};
    for (const o of options(entry)) opts[o.name] = data.get(o.name) || o.default;
    return {
      options: opts,
      kind: data.get("kind") || defaultKind(entry),
      difficulty: data.get("difficulty") || DEFAULT_DIFFICULTY,
    };
  };
  // "Solvable only" exists only for some option sets (the catalog lists them); the
  // difficulty applies to solvable deals.
  const sync = () => {
    const radio = form.querySelector('input[name="kind"][value="solvable"]');
    const offered = entry.solvable_options;
    if (radio && Array.isArray(offered)) {
      const chosen = read().options;
      const ok = offered.some((set) => Object.entries(set).every(([k, v]) => chosen[k] === v));
      radio.disabled = !ok;
      if (!ok && radio.checked) form.querySelector('input[name="kind"][value="random"]').checked = true;
    }
    if (difficulty) difficulty.disabled = read().kind !== "solvable";
  };
  form.addEventListener("change", () => {
    sync();
    onChange(read());
  });
  form.addEventListener("submit", (e) => e.preventDefault());
  sync();
  return { form, read };
}

function tile(entry) {
  let choice = lastChoice(entry);
  const { form, read } = optionsForm(entry, choice, (c) => {
    choice = c;
    saveChoice(entry, c);
  });
  const play = () => {
    choice = read();
    saveChoice(entry, choice);
    go(playPath(entry, choice));
  };
  return h(
    "li.game-card",
    { "data-game": entry.id },
    h("div.mini-wrap", {}, miniTable(entry.id)),
    h("h2", { lang: getLang() }, title(entry)),
    h("p.other", { lang: getLang() === "ru" ? "en" : "ru" }, otherTitle(entry, getLang())),
    h("p.about", {}, t(`about.${entry.id}`)),
    h(
      "div.actions",
      {},
      h("button.btn.primary.play", { type: "button", "data-action": "play", onclick: play }, t("home.play")),
      h("a", { href: `/rules/${entry.id}` }, t("home.rules")),
    ),
    h("details.more", {}, h("summary", {}, t("home.options")), form),
  );
}

/** "Continue" entries: the newest unfinished game of each game and option set. */
async function continueList(games) {
  let list;
  try {
    list = (await api.listGames()).games || [];
  } catch {
    return null;
  }
  const seen = new Set();
  const items = [];
  for (const g of list) {
    const entry = games.find((e) => e.id === g.game);
    if (g.status !== "playing" || !entry) continue;
    const key = `${g.game}?${new URLSearchParams(g.options)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const choice = { options: g.options, kind: g.kind, difficulty: g.difficulty || DEFAULT_DIFFICULTY };
    const label = options(entry)
      .filter((o) => o.values.length > 1)
      .map((o) => o.valueTitles[o.values.indexOf(g.options[o.name])])
      .filter(Boolean)
      .join(", ");
    items.push(
      h(
        "li",
        {},
        h(
          "a.btn.continue",
          { href: playPath(entry, choice, g.deal, g), "data-game-id": g.id },
          h("b", {}, title(entry)),
          label ? h("span.opts", {}, label) : null,
          h("span.figures", {}, t("home.continue_figures", { deal: g.deal, moves: g.moves, time: formatTime(g.time_ms) })),
        ),
      ),
    );
  }
  if (!items.length) return null;
  return h("section.continue-list", { "aria-labelledby": "continue-title" },
    h("h2", { id: "continue-title" }, t("home.continue")), h("ul", {}, items));
}

export function showHome(main, games) {
  document.title = t("brand");
  const slot = h("div.continue-slot");
  const daily = h("div.daily-slot");
  main.replaceChildren(
    h("h1", {}, t("home.title")),
    h("p.lead", {}, t("home.lead")),
    slot,
    daily,
    h("ul.games", {}, games.map(tile)),
  );
  continueList(games).then((section) => {
    if (section && slot.isConnected) slot.replaceWith(section);
  });
  dailySection(games).then((section) => {
    if (section && daily.isConnected) daily.replaceWith(section);
  });
}
