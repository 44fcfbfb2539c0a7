/** Event statuses and their allowed transitions (decisions.md section 4). */

export const EVENT_STATUSES = [
  "pending",
  "retrying",
  "delivered",
  "failed",
  "filtered",
  "cancelled",
] as const;
export type EventStatus = (typeof EVENT_STATUSES)[number];

/** Statuses from which nothing happens until a replay. */
export const FINAL_STATUSES: readonly EventStatus[] = [
  "delivered",
  "failed",
  "filtered",
  "cancelled",
];

/** Statuses with delivery work still ahead (the only ones that may be cancelled). */
export const ACTIVE_STATUSES: readonly EventStatus[] = ["pending", "retrying"];

const TRANSITIONS: Record<EventStatus, readonly EventStatus[]> = {
  pending: ["filtered", "delivered", "retrying", "failed", "cancelled"],
  retrying: ["delivered", "retrying", "failed", "cancelled"],
  // Replay: any final state goes back to pending (same id, attempts keep numbering).
  delivered: ["pending"],
  failed: ["pending"],
  filtered: ["pending"],
  cancelled: ["pending"],
};

export function isFinalStatus(status: EventStatus): boolean {
  return FINAL_STATUSES.includes(status);
}

export function canTransition(from: EventStatus, to: EventStatus): boolean {
  return TRANSITIONS[from].includes(to);
}

/** The event type: top-level `type`, else `event`, when it is a string. */
export function eventTypeOf(payload: unknown): string | null {
  if (typeof payload !== "object" || payload === null || Array.isArray(payload)) return null;
  const record = payload as Record<string, unknown>;
  if (typeof record.type === "string") return record.type;
  if (typeof record.event === "string") return record.event;
  return null;
}
