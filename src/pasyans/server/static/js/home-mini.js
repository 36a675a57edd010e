// A small drawing of each game's table for the home page's tiles: piles as card outlines,
// face-up cards light, face-down ones dark. Pure SVG, no card faces.
const SVG = "http://www.w3.org/2000/svg";
const W = 10; // card width in drawing units
const H = 14;
const G = 2;

function el(name, attrs) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

const x = (slot) => G + slot * (W + G);

// Each game: [kind, slot, row y, n cards, down cards] lists; kinds: "slot" (empty place),
// "up" (a fanned column), "stack" (a face-down pile), "across" (a card lying across).
const TABLES = {
  spine: () => [
    ...[0, 1, 2, 3, 4, 5, 6, 7].map((i) => ["slot", i + 0.5, 2]),
    ...[0, 1, 2, 3, 5, 6, 7, 8].map((i) => ["up", i, 20, 5, 0]),
    ["up", 4, 20, 12, 0, 2.6],
  ],
  backbone: () => [
    ["stack", 0, 2], ["slot", 1, 2],
    ...[2, 3, 4, 5, 6, 7, 8, 9].map((i) => ["slot", i, 2]),
    ...[0, 1, 2, 3, 6, 7, 8, 9].map((i) => ["up", i, 20, 1, 0]),
    ["up", 4, 20, 8, 0, 3], ["up", 5, 20, 8, 0, 3], ["across", 4.5, 41],
  ],
  spider: () => [
    ["stack", 0, 2],
    ...[2, 3, 4, 5, 6, 7, 8, 9].map((i) => ["slot", i, 2]),
    ...[0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map((i) => ["up", i, 20, i < 4 ? 6 : 5, i < 4 ? 5 : 4]),
  ],
  nivernais: () => [
    ["stack", 0, 2],
    ...[2, 3, 4, 5, 6, 7, 8, 9].map((i) => ["slot", i, 2]),
    ...[0, 1, 8, 9].flatMap((i) => [["up", i, 20, 1, 0], ["up", i, 36, 1, 0]]),
    ...[2, 3, 4, 5, 6, 7].map((i) => ["up", i, 20, 4, 0]),
  ],
};
TABLES["backbone-classic"] = TABLES.backbone;

/** The drawing of game `id`'s starting table, as an SVG element. */
export function miniTable(id) {
  const svg = el("svg", { viewBox: `0 0 ${x(10)} 64`, class: "mini", "aria-hidden": "true", focusable: "false" });
  for (const [kind, slot, y, n = 1, down = 0, step = 4] of (TABLES[id] || TABLES.spider)()) {
    const cx = x(slot);
    if (kind === "slot") svg.append(el("rect", { x: cx, y, width: W, height: H, rx: 1.5, class: "m-slot" }));
    else if (kind === "stack") svg.append(el("rect", { x: cx, y, width: W, height: H, rx: 1.5, class: "m-down" }));
    else if (kind === "across") svg.append(el("rect", { x: cx - 2, y, width: H, height: W, rx: 1.5, class: "m-up" }));
    else {
      for (let i = 0; i < n; i++) {
        const yy = y + (i < down ? i * 2 : down * 2 + (i - down) * step);
        svg.append(el("rect", { x: cx, y: yy, width: W, height: H, rx: 1.5, class: i < down ? "m-down" : "m-up" }));
      }
    }
  }
  return svg;
}
