// Playing time: the server counts it (time_ms, kept with the game); the page shows it
// ticking and sends the heartbeat (every 10 s while visible and focused) that makes it count.
// Without network the clock stops (the server counts no time it hears nothing of) and
// goes on when the network returns (net.js).
import { isOnline, onNet } from "./net.js";

const BEAT_MS = 10000;

export class GameTimer {
  constructor(onTick, heartbeat) {
    this.onTick = onTick;
    this.heartbeat = heartbeat;
    this.base = 0;
    this.since = null;
    this.tick = null;
    this.beat = null;
    this.wanted = false; // running, but for the network
    onNet(() => {
      if (!isOnline()) this.pause();
      else if (this.wanted) this.run();
    });
  }

  /** Take the server's figure as the truth. */
  sync(ms) {
    this.base = ms;
    if (this.since !== null) this.since = Date.now();
  }

  elapsed() {
    return this.base + (this.since === null ? 0 : Date.now() - this.since);
  }

  start() {
    this.wanted = true;
    if (isOnline()) this.run();
  }

  run() {
    if (this.since !== null) return;
    this.since = Date.now();
    this.tick = setInterval(() => {
      if (document.visibilityState === "visible") this.onTick(this.elapsed());
    }, 1000);
    this.beat = setInterval(async () => {
      if (document.visibilityState !== "visible" || !document.hasFocus()) return;
      const ms = await this.heartbeat();
      if (typeof ms === "number" && this.since !== null) this.sync(ms);
    }, BEAT_MS);
  }

  stop() {
    this.wanted = false;
    this.pause();
  }

  pause() {
    if (this.since === null) return;
    this.base = this.elapsed();
    this.since = null;
    clearInterval(this.tick);
    clearInterval(this.beat);
  }
}
