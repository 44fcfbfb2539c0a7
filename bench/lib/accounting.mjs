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

/** True once `expected` events of the webhook are settled. */
export async function isSettled(sql, webhookId, expected) {
  const c = await counts(sql, webhookId);
  return c.delivered + c.failed >= expected;
}

/** Waits until `expected` events of the webhook are settled (delivered or failed). */
export async function waitSettled(sql, webhookId, expected, timeoutMs, intervalMs = 250) {
  const deadline = Date.now() + timeoutMs;
  let c = await counts(sql, webhookId);
  while (Date.now() < deadline && c.delivered + c.failed < expected) {
    await sleep(intervalMs);
    c = await counts(sql, webhookId);
  }
  return c;
}

/**
 * Waits until the receiver has counted `target` deliveries (cumulative count), polling the
 * receiver rather than Postgres: a phase's own polling then adds nothing to the database CPU it
 * measures (a count over a webhook's events 4 times a second grows with every round).
 */
export async function waitArrivals(receiver, target, timeoutMs, settled = async () => false) {
  const deadline = Date.now() + timeoutMs;
  for (let polls = 1; Date.now() < deadline && (await receiver.count()) < target; polls++) {
    await sleep(100);
    // Events that fail never arrive: every 2 s the database says whether all settled anyway.
    if (polls % 20 === 0 && (await settled())) return;
  }
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

/**
 * Stands in for autovacuum where the server runs without it (this project's CI machines set
 * `autovacuum = off`): every settled event leaves a dead row and a dead entry in the open-events
 * index, which production's autovacuum clears (migration 0013 makes it run after 2 % of the
 * table changed) and which here pile up, so each sweep of the worker walks every event ever
 * accepted. Returns whether it vacuumed.
 */
export async function vacuumWithoutAutovacuum(sql) {
  const [{ autovacuum }] = await sql`show autovacuum`;
  if (autovacuum === "on") return false;
  await sql.unsafe("vacuum (analyze) events");
  return true;
}
