// The phases that need a worker: backlog drain, ingress and worker together, fixed rates with
// delivery (ingress-to-delivery latency), and the bad receiver. Run after the ingress-alone
// phases of bench/run.mjs, on the same database, receiver and ingress.
import { setTimeout as sleep } from "node:timers/promises";
import { balance, counts, endToEnd, vacuumWithoutAutovacuum, waitSettled } from "./accounting.mjs";
import { inChild } from "./drivers.mjs";
import { fmt, summarize } from "./stats.mjs";

/**
 * `ctx`: { P (results.phases), sql, plain, signed, bad (webhooks), receiver, ingressUrl,
 * peakRps, post (request options builder), startWorker, quick, phaseMs, log }.
 */
export async function workerPhases(ctx) {
  const { P, sql, plain, signed, bad, receiver, ingressUrl, peakRps, post, startWorker, log } = ctx;
  const QUICK = ctx.quick;
  const PHASE_MS = ctx.phaseMs;
  // (b) One worker drains the backlog the phases above left: pure delivery throughput.
  await receiver.reset();
  const backlog = (await counts(sql, plain.id)).total + (await counts(sql, signed.id)).total;
  const drainStart = performance.now();
  await startWorker();
  const cPlain = await waitSettled(sql, plain.id, (await counts(sql, plain.id)).total, 240_000);
  const cSigned = await waitSettled(sql, signed.id, (await counts(sql, signed.id)).total, 120_000);
  const drainSeconds = (performance.now() - drainStart) / 1000;
  P.e2e_drain = {
    eventsPerSecond: (cPlain.delivered + cSigned.delivered) / drainSeconds,
    seconds: drainSeconds,
    backlog,
    balance: [balance("plain", cPlain.total, cPlain), balance("signed", cSigned.total, cSigned)],
  };
  log(
    `worker drain: ${fmt(P.e2e_drain.eventsPerSecond, 0)} events/s delivered (backlog ${backlog}, worker start included)`,
  );
  await receiver.drain();

  // (b') Ingress and worker together, closed loop, ids collected for end-to-end latency.
  const before = await counts(sql, plain.id);
  const b = await inChild("closed", post(ingressUrl, plain), { collectIds: true });
  const cB = await waitSettled(sql, plain.id, before.total + b.ok, 120_000);
  const e2eB = endToEnd((await receiver.drain()).arrivals, b.sent, summarize);
  P.e2e_concurrent = {
    ingressRps: b.rps,
    deliveredPerSecond: (cB.delivered - before.delivered) / b.seconds,
    latency: e2eB,
    balance: balance("plain", before.total + b.ok, cB),
  };
  log(`together: ingress ${fmt(b.rps, 0)} req/s, e2e p50 ${fmt(e2eB.p50)} p99 ${fmt(e2eB.p99)} ms`);

  // (c) Fixed rates with the worker delivering: ingress latency and ingress-to-delivery latency.
  for (const [label, rate] of [
    ["500/s", 500],
    ["50% of peak", Math.round(peakRps * 0.5)],
    ["80% of peak", Math.round(peakRps * 0.8)],
  ]) {
    if (await vacuumWithoutAutovacuum(sql)) {
      log(`  (autovacuum is off on this server: events vacuumed before the ${label} phase)`);
    }
    const pre = await counts(sql, plain.id);
    const r = await inChild(
      "open",
      post(ingressUrl, plain, { rate, connections: 256, warmupMs: ctx.openWarmupMs }),
      { collectIds: true },
    );
    const c = await waitSettled(sql, plain.id, pre.total + r.ok, 120_000);
    const e2e = endToEnd((await receiver.drain()).arrivals, r.sent, summarize);
    P[`open_${rate}`] = {
      label,
      rate,
      achievedRps: r.achievedRps,
      ingress: r.latency,
      ingressWarmup: r.warmupLatency,
      e2e,
      errors: r.errors,
      balance: balance("plain", pre.total + r.ok, c),
    };
    log(
      `open ${label} (${rate}/s) with worker: ingress p50 ${fmt(r.latency.p50)} p99 ${fmt(r.latency.p99)} ms; e2e p50 ${fmt(e2e.p50)} p99 ${fmt(e2e.p99)} ms`,
    );
  }

  // (e) Bad receiver: 200 ms answers, 10 % HTTP 500, down for 10 s in the middle.
  const badRate = 200;
  const ref = await inChild("open", post(ingressUrl, bad, { rate: badRate, connections: 256 }));
  await receiver.setMode({ mode: "bad", delayMs: 200, failRate: 0.1 });
  const downTimer = (async () => {
    await sleep(QUICK ? 1000 : 3000);
    await receiver.setMode({ mode: "down" });
    await sleep(10_000);
    await receiver.setMode({ mode: "bad", delayMs: 200, failRate: 0.1 });
  })();
  const badRun = await inChild(
    "open",
    post(ingressUrl, bad, {
      rate: badRate,
      connections: 256,
      durationMs: Math.max(PHASE_MS * 2, 15_000),
    }),
  );
  await downTimer;
  const cBad = await waitSettled(sql, bad.id, ref.ok + badRun.ok, 240_000);
  await receiver.setMode({ mode: "ok" });
  P.bad_receiver = {
    rate: badRate,
    ingressP99Reference: ref.latency.p99,
    ingressP99DuringBadReceiver: badRun.latency.p99,
    ingressP50: badRun.latency.p50,
    errors: badRun.errors,
    balance: balance("bad", ref.ok + badRun.ok, cBad),
  };
  log(
    `bad receiver: ingress p99 ${fmt(badRun.latency.p99)} ms (reference ${fmt(ref.latency.p99)} ms), delivered ${cBad.delivered}/${ref.ok + badRun.ok}, failed ${cBad.failed}`,
  );
}
