// Playing time: the server counts it (time_ms, kept with the game); the page shows it
// ticking and sends the heartbeat (every 10 s while visible and focused) that makes it count.
const BEAT_MS = 10000;

export class GameTimer {
  constructor(onTick, heartbeat) {
    this.onTick = onTick;
    this.heartbeat = heartbeat;
    this.base = 0;
    this.since = null;
    this.tick = null;
    this.beat = null;
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
    if (this.since === null) return;
    this.base = this.elapsed();
    this.since = null;
    clearInterval(this.tick);
    clearInterval(this.beat);
  }
}
