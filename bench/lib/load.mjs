import { Pool } from "undici";
import { summarize } from "./stats.mjs";

/**
 * Closed loop: `connections` callers each send the next request as soon as the previous one
 * answered, for `durationMs` or `maxRequests`, whichever comes first. Measures peak req/s.
 */
export async function closedLoop({
  url,
  path,
  body,
  headers = {},
  connections = 64,
  durationMs = 5000,
  maxRequests = 200_000,
  onResponse,
}) {
  const pool = new Pool(url, { connections, pipelining: 1 });
  const latencies = [];
  let sent = 0;
  let ok = 0;
  let errors = 0;
  const statuses = {};
  const started = performance.now();
  const deadline = started + durationMs;
  async function caller() {
    while (performance.now() < deadline && sent < maxRequests) {
      sent++;
      const t0 = performance.now();
      try {
        const res = await pool.request({
          method: "POST",
          path,
          body,
          headers: { "content-type": "application/json", ...headers },
        });
        const text = await res.body.text();
        const ms = performance.now() - t0;
        statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
        if (res.statusCode < 300) {
          ok++;
          latencies.push(ms);
          onResponse?.(text, t0);
        } else errors++;
      } catch {
        errors++;
      }
    }
  }
  await Promise.all(Array.from({ length: connections }, caller));
  const elapsed = (performance.now() - started) / 1000;
  await pool.close();
  return {
    ok,
    errors,
    statuses,
    rps: ok / elapsed,
    seconds: elapsed,
    latency: summarize(latencies),
  };
}

/**
 * Open loop: requests are scheduled at a fixed rate whatever the server does, and latency is
 * measured from the SCHEDULED send time, so queueing in the client or server is not hidden
 * (no coordinated omission). The first `warmupMs` are sent at the same rate but not measured
 * (connections open, both sides' code is compiled); their latencies come back apart as
 * `warmupLatency`, and `onResponse` is not called for them.
 */
export async function openLoop({
  url,
  path,
  body,
  headers = {},
  rate,
  durationMs = 5000,
  warmupMs = 0,
  connections = 256,
  onResponse,
}) {
  const pool = new Pool(url, { connections, pipelining: 1 });
  const warmup = Math.floor((rate * warmupMs) / 1000);
  const total = warmup + Math.floor((rate * durationMs) / 1000);
  const interval = 1000 / rate;
  const latencies = [];
  const warmupLatencies = [];
  let ok = 0;
  let errors = 0;
  const started = performance.now();
  const inflight = [];
  for (let i = 0; i < total; i++) {
    const scheduled = started + i * interval;
    const wait = scheduled - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    inflight.push(
      pool
        .request({
          method: "POST",
          path,
          body,
          headers: { "content-type": "application/json", ...headers },
        })
        .then(async (res) => {
          const text = await res.body.text();
          if (res.statusCode < 300) {
            ok++;
            if (i < warmup) {
              warmupLatencies.push(performance.now() - scheduled);
              return;
            }
            latencies.push(performance.now() - scheduled);
            onResponse?.(text, scheduled);
          } else errors++;
        })
        .catch(() => {
          errors++;
        }),
    );
  }
  await Promise.all(inflight);
  await pool.close();
  return {
    ok,
    errors,
    rate,
    achievedRps: ok / ((performance.now() - started) / 1000),
    latency: summarize(latencies),
    warmupLatency: summarize(warmupLatencies),
  };
}
