// The table's layout for the screen: measures the room the table has and asks layout.js
// for the geometry of the game in it.
import { layout } from "./layout.js";

/** The geometry of `view` in the room left for `tableEl` below the toolbar. */
export function tableGeometry(tableEl, view, large) {
  const box = tableEl.parentElement.getBoundingClientRect();
  const width = Math.max(320, tableEl.parentElement.clientWidth);
  const height = Math.max(360, window.innerHeight - (box.top + window.scrollY) - 8);
  return layout(view, width, height, large);
}
