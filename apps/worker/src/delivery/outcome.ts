/** What became of one delivery job; the lane worker maps it to done, delayed or unrecoverable. */
export type DeliveryOutcome = {
  outcome:
    | "delivered"
    | "retrying"
    | "fallback"
    | "failed"
    | "filtered"
    | "parked"
    | "rate_limited"
    | "circuit_open"
    | "inactive"
    | "gone"
    | "settled";
  attempt?: number;
  statusCode?: number;
  error?: string | null;
} & ({ kind: "done" } | { kind: "delay"; untilMs: number } | { kind: "unrecoverable" });
