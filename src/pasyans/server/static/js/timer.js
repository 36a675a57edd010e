// Time spent on a game, kept per game id in localStorage so a reload keeps counting.
const PREFIX = "pasyans.time.";

export class GameTimer {
  constructor(gameId, onTick) {
    this.key = PREFIX + gameId;
    this.onTick = onTick;
    this.base = Number(localStorage.getItem(this.key) || 0) || 0;
    this.since = null;
    this.handle = null;
  }

  elapsed() {
    return this.base + (this.since === null ? 0 : Date.now() - this.since);
  }

  start() {
    if (this.since !== null) return;
    this.since = Date.now();
    this.handle = setInterval(() => {
      this.save();
      this.onTick(this.elapsed());
    }, 1000);
  }

  stop() {
    if (this.since === null) return;
    this.base = this.elapsed();
    this.since = null;
    clearInterval(this.handle);
    this.save();
  }

  reset() {
    this.base = 0;
    if (this.since !== null) this.since = Date.now();
    this.save();
  }

  save() {
    try {
      localStorage.setItem(this.key, String(Math.round(this.elapsed())));
    } catch {
      /* ignore */
    }
  }
}
