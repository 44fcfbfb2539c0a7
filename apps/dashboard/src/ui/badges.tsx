const STATUS_TONE: Record<string, string> = {
  delivered: "ok",
  healthy: "ok",
  success: "ok",
  passed: "ok",
  would_deliver: "ok",
  forwarded: "ok",
  approved: "ok",
  active: "ok",
  pending: "info",
  running: "info",
  parked: "info",
  retrying: "warn",
  degraded: "warn",
  filtered: "warn",
  blocked: "warn",
  inactive: "plain",
  cancelled: "plain",
  failed: "bad",
  error: "bad",
  down: "bad",
  rejected: "bad",
};

/** A status as a coloured pill; the word is always shown, so colour is never the only cue. */
export function StatusBadge({ status, label }: { status: string; label?: string }) {
  return (
    <span className={`badge ${STATUS_TONE[status] ?? ""}`}>
      {label ?? status.replace("_", " ")}
    </span>
  );
}
