// The table's layout for the screen: measures the room the table has and asks layout.js
// for the geometry of the game in it.
import { layout } from "./layout.js";

/** The height a bar fixed to the bottom of the screen (the touch toolbar) takes. */
function bottomBar() {
  const bar = document.querySelector(".toolbar .actions");
  if (!bar || getComputedStyle(bar).position !== "fixed") return 0;
  const r = bar.getBoundingClientRect();
  return r.top > window.innerHeight / 2 ? window.innerHeight - r.top : 0;
}

/** The geometry of `view` in the room left for `tableEl` between the bars. Called again
 * on every resize and rotation. */
export function tableGeometry(tableEl, view, large) {
  const box = tableEl.parentElement.getBoundingClientRect();
  const width = Math.max(300, tableEl.parentElement.clientWidth);
  const height = Math.max(240, window.innerHeight - (box.top + window.scrollY) - bottomBar() - 8);
  return layout(view, width, height, large);
}
