// Starting an analysis (docs/analysis.md): from the history page and the end of a game.
// The request only queues it; the analysis page polls it.
import { call } from "./api.js";

/** Queue the analysis of game `id` (a stuck game in progress is given up first, at
 * `version`) and go to its page. Resolves to an error text, or null when under way. */
export async function analyse(id, { giveUpAt = null } = {}) {
  const path = `/api/games/${encodeURIComponent(id)}`;
  try {
    if (giveUpAt !== null) await call("POST", `${path}/giveup`, { version: giveUpAt });
    const a = await call("POST", `${path}/analysis`, {});
    window.dispatchEvent(new CustomEvent("pasyans:navigate", { detail: `/analysis/${a.share}` }));
    return null;
  } catch (e) {
    return e.message || String(e);
  }
}
