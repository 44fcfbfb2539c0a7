/** The ISO text of a time in ms; steps of one millisecond (most of a run's) share one. */
let lastTimeMs = Number.NaN;
let lastTimeIso = "";

export function isoTime(ms: number): string {
  if (ms !== lastTimeMs) {
    lastTimeMs = ms;
    lastTimeIso = new Date(ms).toISOString();
  }
  return lastTimeIso;
}
