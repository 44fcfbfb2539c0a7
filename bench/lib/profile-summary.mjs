// Summarises a V8 .cpuprofile: self time by package and by function, so a profile can be read
// without DevTools.   node bench/lib/profile-summary.mjs <file.cpuprofile> [topN]
import { readFileSync } from "node:fs";

const [file, topText] = process.argv.slice(2);
const top = Number(topText ?? 25);
const profile = JSON.parse(readFileSync(file, "utf8"));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map();
const dt = profile.timeDeltas;
for (let i = 0; i < profile.samples.length; i++) {
  const id = profile.samples[i];
  self.set(id, (self.get(id) ?? 0) + (dt[i] ?? 0));
}
const total = [...self.values()].reduce((a, b) => a + b, 0);

function packageOf(url) {
  if (!url) return "(native/vm)";
  const m = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (m) return m[1];
  if (url.startsWith("node:")) return "node-core";
  const w = /\/(apps|packages)\/([^/]+)\//.exec(url);
  if (w) return `@hookflow/${w[2]}`;
  return url;
}

const pkg = new Map();
const fn = new Map();
for (const [id, us] of self) {
  const n = byId.get(id);
  const { functionName, url, lineNumber } = n.callFrame;
  const p = packageOf(url);
  pkg.set(p, (pkg.get(p) ?? 0) + us);
  const key = `${functionName || "(anon)"} ${p}${url ? `:${lineNumber + 1}` : ""}`;
  fn.set(key, (fn.get(key) ?? 0) + us);
}
const pct = (us) => `${((100 * us) / total).toFixed(1).padStart(5)}%`;
const show = (title, map) => {
  console.log(`\n${title}`);
  for (const [k, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`${pct(us)}  ${k}`);
  }
};
// Inclusive time per function (a function's own samples plus its callees'), counting a
// recursive function once per stack.
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const keyOf = (n) => {
  const { functionName, url, lineNumber } = n.callFrame;
  return `${functionName || "(anon)"} ${packageOf(url)}${url ? `:${lineNumber + 1}` : ""}`;
};
const incl = new Map();
for (const [id, us] of self) {
  const seen = new Set();
  for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
    const k = keyOf(byId.get(cur));
    if (seen.has(k)) continue;
    seen.add(k);
    incl.set(k, (incl.get(k) ?? 0) + us);
  }
}
console.log(`profile ${(total / 1e6).toFixed(2)} s of samples`);
show("self time by package", pkg);
show("self time by function", fn);
show("inclusive time by function", incl);

// Self time by stage of an ingress request: a sample goes to the first stage found on its stack,
// innermost frame first, so time in shared helpers lands with the stage that called them.
const STAGES = [
  ["garbage collection", (f) => f.functionName === "(garbage collector)"],
  ["idle (waiting on Postgres, Redis or the CPU)", (f) => f.functionName === "(idle)"],
  [
    "enqueue (BullMQ, ioredis)",
    (f) => /bullmq|ioredis|msgpackr|@hookflow\/queue/.test(packageOf(f.url)),
  ],
  [
    "insert (postgres.js, batch JSON)",
    (f) => /^postgres$|@hookflow\/db|drizzle-orm/.test(packageOf(f.url)),
  ],
  ["group commit and store glue", (f) => /group-commit|store-events/.test(f.url)],
  ["ids, stream token, signature (crypto)", (f) => /@hookflow\/domain/.test(packageOf(f.url))],
  ["receive: body, JSON, checks", (f) => /@hookflow\/ingress/.test(packageOf(f.url))],
  [
    "metrics, logs, tracing",
    (f) => /@hookflow\/observability|prom-client|pino|@opentelemetry/.test(packageOf(f.url)),
  ],
  [
    "HTTP server, Hono, sockets",
    (f) => /@hono\/node-server|^hono$/.test(packageOf(f.url)) || /^node:_http_/.test(f.url),
  ],
];
const stage = new Map();
for (const [id, us] of self) {
  let name = "other (startup, timers, node internals)";
  outer: for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
    const frame = byId.get(cur).callFrame;
    for (const [label, test] of STAGES) {
      if (test(frame)) {
        name = label;
        break outer;
      }
    }
  }
  stage.set(name, (stage.get(name) ?? 0) + us);
}
show("self time by stage (first stage on the stack, innermost first)", stage);
