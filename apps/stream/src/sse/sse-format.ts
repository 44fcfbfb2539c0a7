/** Server-sent event names of the pipeline stream (spec: Pipeline stream). */
export type SseEventName = "step" | "done" | "timeout";

/** A comment line: keeps proxies and clients from timing the connection out. */
export const HEARTBEAT = ": heartbeat\n\n";

/** Tells EventSource clients how long to wait before reconnecting (ms). */
export const RETRY_HINT = "retry: 3000\n\n";

/**
 * One SSE message. `data` is JSON, which never contains a raw newline, so it always fits one
 * `data:` line. `id` is the message's sequence number (the client's `Last-Event-ID`).
 */
export function formatSseMessage(event: SseEventName, data: unknown, id?: number): string {
  const idLine = id === undefined ? "" : `id: ${id}\n`;
  return `event: ${event}\n${idLine}data: ${JSON.stringify(data)}\n\n`;
}

/** A `Last-Event-ID` value: a non-negative integer, else 0 (start from the beginning). */
export function parseLastEventId(value: string | undefined | null): number {
  if (!value) return 0;
  const trimmed = value.trim();
  if (!/^\d{1,15}$/.test(trimmed)) return 0;
  return Number(trimmed);
}
