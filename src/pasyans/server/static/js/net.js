// The network as the page sees it: online or not, and actions sent exactly once.
//
// Every state-changing request carries an action id made here (docs/interfaces.md,
// "Action ids"). When its answer is lost (a network error, a gateway error, or no answer
// for STALL_MS) it is sent again with the same id, with backoff, until an answer comes:
// the server applies it once and answers a repeat with the first answer
// (`Pasyans-Replayed: 1`). So the page never gives up on an action it sent, and a 409
// "stale version" is never caused by the page's own action: every action of this page
// is settled before the next is sent. A version moved by anything else is another tab's
// (or device's) doing, and only then does the page say so.
//
// State: `online` (the browser says so, and the last request got an answer), `offline`
// (the browser says there is no network) or `waiting` (online, but a request got no
// answer). The page listens (`onNet`) to show the banner, stop the clock and resync.

/** After a failed try, the next is sent after these delays (ms), the last repeated; the
 * browser's "online" event sends at once. */
export const RESEND_MS = [1500, 3000, 6000, 10000];
/** No answer after this long: the same action is sent again alongside (the first still
 * counts if it answers first). Costly actions (hint) wait longer. */
export const STALL_MS = 2500;

let state = typeof navigator !== "undefined" && navigator.onLine === false ? "offline" : "online";
const listeners = new Set();
let wake = new Set(); // resolvers of waits cut short when the network returns

/** The network's state: "online", "offline" or "waiting". */
export const netState = () => state;
export const isOnline = () => state === "online";

/** Call `fn(state, previous)` on each change; returns the unsubscribe function. */
export function onNet(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

function setState(next) {
  if (next === state) return;
  const prev = state;
  state = next;
  document.documentElement.dataset.net = next;
  if (next === "online") {
    for (const w of wake) w();
    wake = new Set();
  }
  for (const fn of [...listeners]) fn(next, prev);
}

if (typeof window !== "undefined") {
  document.documentElement.dataset.net = state;
  window.addEventListener("offline", () => setState("offline"));
  // The browser's word that the network is back: ask at once (a wait is cut short).
  window.addEventListener("online", () => setState("online"));
}

/** A request got an answer (any HTTP status): the server is reachable. */
export function reached() {
  setState("online");
}

/** A request got no answer: until one does, the server is asked now and then (a reload
 * without network may never hear the browser's "online" event). */
export function lost() {
  setState(navigator.onLine === false ? "offline" : "waiting");
  probe();
}

/** Delays between two questions to the server while it cannot be reached (ms). */
export const PROBE_MS = [1500, 3000, 5000];
let probing = false;

async function probe() {
  if (probing) return;
  probing = true;
  try {
    for (let i = 0; state !== "online"; i++) {
      await pause(PROBE_MS[Math.min(i, PROBE_MS.length - 1)]);
      if (state === "online") break;
      try {
        // A small answer that is never cached: any answer is proof of the way back.
        await fetch("/api/catalog", { cache: "no-store", credentials: "same-origin" });
        reached();
      } catch {
        /* still gone */
      }
    }
  } finally {
    probing = false;
  }
}

let unsettled = 0;
/** Actions sent whose answer is still awaited after a lost try. */
export const unsettledActions = () => unsettled;

function notify() {
  for (const fn of [...listeners]) fn(state, state);
}

/** Wait `ms`, or less if the network comes back meanwhile. */
export function pause(ms) {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      wake.delete(done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    wake.add(done);
  });
}

/** A new action id: 16 characters of URL-safe base64 (96 random bits). */
export function actionId() {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_");
}

/** Whether an error means the answer was lost (the action may or may not have been
 * applied): no answer, or a gateway's error. */
export const answerLost = (e) => e.status === 0 || e.status === 502 || e.status === 503 || e.status === 504;

/** Send with `send(signal)` until it answers: a lost answer is sent again after
 * RESEND_MS; a try with no answer after `stallMs` is joined by another (the first answer
 * wins, the others are aborted). Resolves with the answer and `{retried}` (whether any
 * try was lost); rejects with an error that is an answer (a refusal). */
export async function untilAnswered(send, { stallMs = STALL_MS } = {}) {
  let retried = false;
  try {
    for (let i = 0; ; i++) {
      try {
        const out = await race(send, stallMs);
        reached();
        return { out, retried };
      } catch (e) {
        if (!answerLost(e)) {
          reached();
          throw e;
        }
        if (!retried) {
          retried = true;
          unsettled++;
        }
        lost();
        notify();
        await pause(RESEND_MS[Math.min(i, RESEND_MS.length - 1)]);
      }
    }
  } finally {
    if (retried) {
      unsettled--;
      notify();
    }
  }
}

function race(send, stallMs) {
  return new Promise((resolve, reject) => {
    const tries = [];
    let timer = null;
    let pending = 0;
    let over = false;
    const end = (fn, value, winner) => {
      over = true;
      clearTimeout(timer);
      for (const c of tries) if (c !== winner) c.abort();
      fn(value);
    };
    const start = () => {
      if (over) return;
      const ctl = new AbortController();
      tries.push(ctl);
      pending++;
      send(ctl.signal).then(
        (v) => !over && end(resolve, v, ctl),
        (e) => {
          pending--;
          if (over) return;
          if (!answerLost(e) || pending === 0) end(reject, e, null);
        },
      );
      if (tries.length === 1) timer = setTimeout(() => { lost(); start(); }, stallMs);
    };
    start();
  });
}
