import { readFileSync } from "node:fs";
import { type Receiver, startReceiver, waitUntil } from "@hookflow/testing";
import { NODE_FLAGS, WORKER_NODE_FLAGS } from "../src/node-flags.js";
import { type HookflowUnderTest, startHookflow } from "./cli-process.js";

const METRICS_TOKEN = "cli-test-metrics-token-workers";

/** The JSON log lines of a process's output with this `msg`. */
function logLines(output: string, msg: string): Record<string, unknown>[] {
  const lines: Record<string, unknown>[] = [];
  for (const line of output.split("\n")) {
    try {
      const parsed = JSON.parse(line) as Record<string, unknown>;
      if (parsed.msg === msg) lines.push(parsed);
    } catch {
      // not a log line
    }
  }
  return lines;
}

function workerPids(hookflow: HookflowUnderTest): number[] {
  const [listening] = logLines(hookflow.cli.output(), "hookflow listening");
  return (listening?.workerProcesses as number[] | undefined) ?? [];
}

/** The Node flags a running process was started with (Linux: its command line). */
function nodeFlagsOf(pid: number): string[] {
  const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").slice(1);
  const script = argv.findIndex((arg) => !arg.startsWith("--"));
  return argv.slice(0, script === -1 ? argv.length : script);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Signs up, creates a webhook to `target`, and returns a function that sends it one event. */
async function webhookSender(base: string, target: string, email: string) {
  const signup = await fetch(`${base}/api/auth/signup`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password: "correct-horse-1", name: "Workers" }),
  });
  expect(signup.status).toBe(201);
  const { token } = (await signup.json()) as { token: string };
  const created = await fetch(`${base}/api/webhooks`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify({ name: "workers", targetUrl: target }),
  });
  expect(created.status).toBe(201);
  const { ingressToken } = (await created.json()) as { ingressToken: string };
  return async (n: number) => {
    const res = await fetch(`${base}/api/in/${ingressToken}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ n }),
    });
    expect(res.status).toBe(202);
  };
}

const bodies = (receiver: Receiver) =>
  receiver.requests.map((request) => JSON.parse(request.body.toString()) as { n: number });

describe("hookflow start --worker-processes 2", () => {
  let receiver: Receiver;
  let hookflow: HookflowUnderTest;

  beforeAll(async () => {
    receiver = await startReceiver();
    hookflow = await startHookflow({ METRICS_TOKEN }, ["--worker-processes", "2"]);
  });

  afterAll(async () => {
    await hookflow?.stop();
    await receiver?.close();
  });

  it("runs the worker in two child processes that deliver, restarts one that dies, and stops them on SIGTERM", async () => {
    const pids = workerPids(hookflow);
    expect(pids).toHaveLength(2);
    for (const pid of pids) expect(alive(pid)).toBe(true);
    expect(pids).not.toContain(hookflow.cli.child.pid);
    // The parent runs the HTTP roles with Hookflow's flags; each worker gets the worker's.
    expect(nodeFlagsOf(hookflow.cli.child.pid as number)).toEqual([...NODE_FLAGS]);
    for (const pid of pids) expect(nodeFlagsOf(pid)).toEqual([...WORKER_NODE_FLAGS]);

    const send = await webhookSender(hookflow.base, `${receiver.url}/hook`, "workers@example.com");
    for (let n = 1; n <= 6; n++) await send(n);
    await receiver.waitForRequests(6, 20_000);
    expect(
      bodies(receiver)
        .map((body) => body.n)
        .sort(),
    ).toEqual([1, 2, 3, 4, 5, 6]);

    // The parent's metrics listener serves the worker processes' metrics too.
    const scrape = await fetch(`http://127.0.0.1:${hookflow.cli.metricsPort}/metrics`, {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    const text = await scrape.text();
    expect(text).toMatch(/hookflow_delivery_attempts_total\{[^}]*\} 6/);
    expect(text).toMatch(/hookflow_http_requests_total\{[^}]*role="ingress"/);

    // A worker process killed outright is started again, and the next events are delivered.
    const [killed] = pids as [number, number];
    process.kill(killed, "SIGKILL");
    const restarted = await waitUntil(
      () => {
        const started = logLines(hookflow.cli.output(), "worker process started");
        const fresh = started.filter((line) => !pids.includes(line.pid as number));
        return fresh.length > 0 ? (fresh[0]?.pid as number) : undefined;
      },
      { timeoutMs: 20_000, describe: () => hookflow.cli.output().slice(-2000) },
    );
    expect(logLines(hookflow.cli.output(), "worker process exited; restarting it")).toEqual([
      expect.objectContaining({ pid: killed, signal: "SIGKILL" }),
    ]);
    expect(alive(restarted)).toBe(true);
    for (let n = 7; n <= 10; n++) await send(n);
    await receiver.waitForRequests(10, 20_000);

    hookflow.cli.child.kill("SIGTERM");
    const { code, signal } = await hookflow.cli.exited;
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    for (const pid of [pids[1] as number, restarted]) expect(alive(pid)).toBe(false);
    expect(logLines(hookflow.cli.output(), "worker process stopped")).toHaveLength(2);
    expect(new Set(bodies(receiver).map((body) => body.n)).size).toBe(10);
  });
});

describe("hookflow start, a parent killed outright", () => {
  it("leaves no worker process behind: each ends when its parent's channel closes", async () => {
    const hookflow = await startHookflow({}, ["--worker-processes", "1"]);
    try {
      const [pid] = workerPids(hookflow);
      expect(pid).toEqual(expect.any(Number));
      hookflow.cli.child.kill("SIGKILL");
      await hookflow.cli.exited;
      await waitUntil(() => (alive(pid as number) ? undefined : true), { timeoutMs: 30_000 });
    } finally {
      await hookflow.stop();
    }
  });
});

describe("hookflow start --worker-processes 0", () => {
  it("runs every role, the worker included, in one process", async () => {
    const receiver = await startReceiver();
    const hookflow = await startHookflow({}, ["--worker-processes", "0"]);
    try {
      expect(workerPids(hookflow)).toEqual([]);
      const [listening] = logLines(hookflow.cli.output(), "hookflow listening");
      expect(listening?.roles).toEqual(["worker", "ingress", "stream", "api"]);
      const send = await webhookSender(hookflow.base, `${receiver.url}/hook`, "one@example.com");
      await send(1);
      const [delivered] = await receiver.waitForRequests(1, 20_000);
      expect(JSON.parse(delivered?.body.toString() ?? "null")).toEqual({ n: 1 });
    } finally {
      await hookflow.stop();
      await receiver.close();
    }
  });
});
