// The table page's entry (app.js loads it on /play/...): the table is one controller,
// table-controller.js, whose parts are the table-*.js modules.
import { showTable } from "./table-controller.js";

/** The table page; `current` is the answer of `/api/current` for these options when the
 * caller already asked for it (app.js asks while this module loads). */
export function showPlay(main, entry, params, current = null) {
  return showTable(main, entry, params, current);
}
