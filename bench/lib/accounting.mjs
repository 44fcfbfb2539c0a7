// Counting what the database holds, so every phase can show its counts balance.
import { setTimeout as sleep } from "node:timers/promises";

export async function counts(sql, webhookId) {
  const rows =
    await sql`select status, count(*)::int as n from events where webhook_id = ${webhookId} group by status`;
  const by = Object.fromEntries(rows.map((r) => [r.status, r.n]));
  const total = rows.reduce((a, r) => a + r.n, 0);
  return {
    total,
    delivered: by.delivered ?? 0,
    failed: by.failed ?? 0,
    pending: (by.pending ?? 0) + (by.retrying ?? 0),
    by,
  };
}

/** Waits until `expected` events of the webhook are settled (delivered or failed). */
export async function waitSettled(sql, webhookId, expected, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  let c = await counts(sql, webhookId);
  while (Date.now() < deadline && c.delivered + c.failed < expected) {
    await sleep(250);
    c = await counts(sql, webhookId);
  }
  return c;
}

/**
 * `accepted` answers 2xx; up to `unanswered` more may have been sent and stored without an answer
 * (wrk abandons requests in flight when it stops). Balanced when the stored count is within that
 * range and stored = delivered + failed + still pending.
 */
export function balance(name, accepted, c, unanswered = 0) {
  const stored = c.total;
  const ok =
    stored >= accepted &&
    stored <= accepted + unanswered &&
    c.delivered + c.failed + c.pending === stored;
  return {
    name,
    accepted,
    stored,
    unansweredAtStop: stored - accepted,
    delivered: c.delivered,
    failed: c.failed,
    stillPending: c.pending,
    balanced: ok,
  };
}

/** Ingress-to-delivery latency from send times (epoch ms) and the receiver's arrival times. */
export function endToEnd(arrivals, sent, summarize) {
  const sentAt = new Map(sent);
  const lat = [];
  const seen = new Set();
  for (const [id, at] of arrivals) {
    if (seen.has(id)) continue;
    seen.add(id);
    const t0 = sentAt.get(id);
    if (t0 !== undefined) lat.push(at - t0);
  }
  return summarize(lat);
}
