// The run's results side by side with the targets docs/benchmarks.md states. Open-loop latencies
// are measured after a one-second warm-up at the same rate (bench/lib/load.mjs, openLoop).
import { describeWriteback } from "./host-writeback.mjs";
import { fmt } from "./stats.mjs";

export function printSummary(results, log) {
  const P = results.phases;
  const row = (measure, value, target = "") => log(`| ${measure} | ${value} | ${target} |`);
  const lat = (l) => `p50 ${fmt(l.p50)} ms, p99 ${fmt(l.p99)} ms`;
  const m = results.machine;
  log("");
  log(`${results.date}: ${m.cpus} x ${m.model}, ${m.memGb} GiB, Node ${m.node}`);
  log(
    `load average before ${m.loadavgBefore.map((x) => x.toFixed(2)).join(" ")}, after ${m.loadavgAfter.map((x) => x.toFixed(2)).join(" ")}`,
  );
  log(describeWriteback(m.writeback));
  log(
    `closed-loop driver: ${results.peakDriver}, ${results.connections} connections, ${results.bodyBytes}-byte JSON body` +
      (P.ingress_warmup
        ? `; every peak after ${P.ingress_warmup.seconds} s of unmeasured warm-up`
        : ""),
  );
  log("");
  log("| measure | result | target |");
  log("|---|---|---|");
  row(
    "bare node:http 202",
    `${fmt(P.baseline_node.rps, 0)} req/s, ${lat(P.baseline_node)}`,
    "baseline",
  );
  row("bare Hono 202", `${fmt(P.baseline_hono.rps, 0)} req/s, ${lat(P.baseline_hono)}`, "baseline");
  if (P.loadgen_check) {
    row(
      "bare Hono, Node client instead of wrk",
      `${fmt(P.loadgen_check.honoWithNodeClient, 0)} req/s`,
      "",
    );
  }
  row(
    "ingress, durable accept, no signature",
    `${fmt(P.ingress_peak.rps, 0)} req/s, ${lat(P.ingress_peak)}; ${fmt(100 * P.ingress_ratio.ofBareHono, 1)} % of bare Hono`,
    ">= 25 % of bare Hono",
  );
  if (P.ingress_warmup) {
    row(
      `ingress warm-up (its first ${P.ingress_warmup.seconds} s, not measured)`,
      `${fmt(P.ingress_warmup.rps, 0)} req/s, p99 ${fmt(P.ingress_warmup.p99)} ms`,
      "",
    );
  }
  row(
    "ingress, custom HMAC signature",
    `${fmt(P.ingress_peak_signed.rps, 0)} req/s, ${lat(P.ingress_peak_signed)}`,
    "",
  );
  for (const share of [50, 80]) {
    const o = P[`ingress_open_${share}`];
    if (o)
      row(
        `ingress alone, open loop ${o.rate}/s (${share} % of peak)`,
        `${lat(o.latency)} (warm-up second: p99 ${fmt(o.warmupLatency?.p99)} ms)`,
        share === 50 ? "p99 < 25 ms" : "",
      );
  }
  if (!P.e2e_drain) {
    row("peak RSS", `ingress ${fmt(P.rss.ingressMb, 0)} MB`, "ingress < 150 MB");
    log("");
    log(results.void ? "VOID: some counts did not balance" : "every phase balanced");
    return;
  }
  row(
    "one worker draining the backlog",
    `${fmt(P.e2e_drain.eventsPerSecond, 0)} events/s (${P.e2e_drain.backlog} events)`,
    "",
  );
  row(
    "ingress + worker, closed loop",
    `ingress ${fmt(P.e2e_concurrent.ingressRps, 0)} req/s; e2e ${lat(P.e2e_concurrent.latency)}`,
    "",
  );
  for (const [key, o] of Object.entries(P)) {
    if (!key.startsWith("open_")) continue;
    row(
      `with worker, open loop ${o.rate}/s (${o.label})`,
      `ingress ${lat(o.ingress)}; e2e ${lat(o.e2e)}`,
      o.rate === 500 ? "e2e p50 < 10 ms, p99 < 50 ms" : "",
    );
  }
  const b = P.bad_receiver;
  row(
    `bad receiver at ${b.rate}/s`,
    `${b.balance.delivered} of ${b.balance.accepted} delivered, ${b.balance.failed} failed; ingress p99 ${fmt(b.ingressP99DuringBadReceiver)} ms vs ${fmt(b.ingressP99Reference)} ms healthy`,
    "no loss, unchanged ingress p99",
  );
  row(
    "peak RSS",
    `ingress ${fmt(P.rss.ingressMb, 0)} MB, worker ${fmt(P.rss.workerMb, 0)} MB`,
    "ingress < 150 MB, worker < 200 MB",
  );
  log("");
  log(results.void ? "VOID: some counts did not balance" : "every phase balanced");
}
