/**
 * One pending wake-up of a pool's dispatcher: asking for an earlier one replaces it, a later one
 * is dropped (the earlier wake-up dispatches everything that is due by then).
 */
export class WakeTimer {
  private timer: NodeJS.Timeout | undefined;
  private dueAtMs = Number.POSITIVE_INFINITY;

  constructor(private readonly fire: () => void) {}

  /** Fires in `ms` (at least 1 ms) from `nowMs`, unless a wake-up at or before that is pending. */
  wakeIn(ms: number, nowMs: number): void {
    const at = nowMs + Math.max(1, Math.ceil(ms));
    if (this.timer && at >= this.dueAtMs) return;
    clearTimeout(this.timer);
    this.dueAtMs = at;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.dueAtMs = Number.POSITIVE_INFINITY;
      this.fire();
    }, at - nowMs);
  }

  clear(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.dueAtMs = Number.POSITIVE_INFINITY;
  }
}
