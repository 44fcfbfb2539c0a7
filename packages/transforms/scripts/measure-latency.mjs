// Measures the transform executors: latency one call at a time, throughput with many calls in
// flight, and the CPU each call costs on the caller's event loop and in total (this process's
// threads plus the sandbox processes). Run after `pnpm build`:
//   node packages/transforms/scripts/measure-latency.mjs [calls]
import { readdirSync, readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { createTransformRunner } from "../dist/index.js";

const calls = Number(process.argv[2] ?? 5000);
const concurrency = 200;
const context = { eventId: "evt_bench", webhookId: "wh_bench", nodeId: "tn_bench" };
const payload = {
  id: "ord_1042",
  type: "order.created",
  customer: { id: "cus_9", name: 'Ada "The Countess" Lovelace', email: "ada@example.com" },
  items: Array.from({ length: 10 }, (_, i) => ({
    sku: `sku-${i}`,
    qty: (i % 3) + 1,
    price: 9.5 + i,
  })),
  shipping: { city: "London", country: "GB" },
  createdAt: "2024-05-01T12:00:00Z",
};
const templates = {
  handlebars:
    '{"id": "{{id}}", "customer": "{{customer.name}}", "city": "{{shipping.city}}", "skus": [{{#each items}}{{#if @index}},{{/if}}"{{sku}}"{{/each}}]}',
  jq: "{id, customer: .customer.name, total: ([.items[] | .price * .qty] | add), skus: [.items[].sku]}",
  javascript:
    "return { id: payload.id, customer: payload.customer.name, total: payload.items.reduce((s, i) => s + i.price * i.qty, 0), skus: payload.items.map((i) => i.sku) };",
};

/** CPU time (ms) of this process's child processes, read from /proc (Linux only). */
function childrenCpuMs() {
  const tick = 10; // USER_HZ is 100 on Linux
  let total = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const fields = readFileSync(`/proc/${entry}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
      if (Number(fields[1]) === process.pid)
        total += (Number(fields[11]) + Number(fields[12])) * tick;
    } catch {
      // the process ended while we looked
    }
  }
  return total;
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
}

async function measure(runner, mode) {
  const input = { mode, template: templates[mode], payload, context };
  for (let i = 0; i < 300; i++) {
    const result = await runner.run(input);
    if (!result.ok) throw new Error(`${mode}: ${result.error}`);
  }
  const latencies = [];
  for (let i = 0; i < 1000; i++) latencies.push((await runner.run(input)).durationMs);
  latencies.sort((a, b) => a - b);

  const elu0 = performance.eventLoopUtilization();
  const cpu0 = process.cpuUsage();
  const children0 = childrenCpuMs();
  const started = performance.now();
  let next = 0;
  async function lane() {
    while (next < calls) {
      next++;
      const result = await runner.run(input);
      if (!result.ok) throw new Error(`${mode}: ${result.error}`);
    }
  }
  await Promise.all(Array.from({ length: concurrency }, lane));
  const seconds = (performance.now() - started) / 1000;
  const elu = performance.eventLoopUtilization(elu0);
  const cpu = process.cpuUsage(cpu0);
  const childrenMs = childrenCpuMs() - children0;
  const totalCpuUs = cpu.user + cpu.system + childrenMs * 1000;
  return {
    mode,
    "p50 ms": percentile(latencies, 50).toFixed(3),
    "p99 ms": percentile(latencies, 99).toFixed(3),
    "calls/s": Math.round(calls / seconds),
    "event loop µs/call": Math.round((elu.active * 1000) / calls),
    "total CPU µs/call": Math.round(totalCpuUs / calls),
  };
}

const runner = createTransformRunner();
try {
  const rows = [];
  for (const mode of ["handlebars", "jq", "javascript"]) rows.push(await measure(runner, mode));
  console.table(rows);
  console.log(`${calls} calls per mode, ${concurrency} in flight; node ${process.version}`);
} finally {
  await runner.close();
}
