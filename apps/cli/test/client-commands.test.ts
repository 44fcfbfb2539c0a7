import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { verifyWebhook } from "@hookflow/sdk";
import { type Receiver, startReceiver, waitUntil } from "@hookflow/testing";
import { CLI, childEnv, type HookflowUnderTest, runCli, startHookflow } from "./cli-process.js";

/** A long-running CLI command whose output is read as it comes. */
function spawnCli(args: string[], env: Record<string, string>) {
  const child: ChildProcess = spawn(process.execPath, [CLI, ...args], { env: childEnv(env) });
  const out = { stdout: "", stderr: "" };
  child.stdout?.on("data", (chunk: Buffer) => {
    out.stdout += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    out.stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) =>
    child.on("close", (code) => resolve(code)),
  );
  return { child, out, exited };
}

describe("client commands against a real Hookflow (hookflow start)", () => {
  let hookflow: HookflowUnderTest;
  let receiver: Receiver;
  let home: string;
  let env: Record<string, string>;
  let session: string;
  const email = `cli-${Date.now()}@example.com`;
  const password = "correct horse battery";

  beforeAll(async () => {
    [hookflow, receiver] = await Promise.all([
      startHookflow({ HOOKFLOW_DELAY_SCALE: "0.001" }),
      startReceiver(),
    ]);
    home = await mkdtemp(join(tmpdir(), "hookflow-cli-home-"));
    const signup = await fetch(`${hookflow.base}/api/auth/signup`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email, password, name: "CLI" }),
    });
    session = ((await signup.json()) as { token: string }).token;
    const key = await fetch(`${hookflow.base}/api/api-keys`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${session}` },
      body: JSON.stringify({
        name: "cli",
        scopes: ["webhooks:read", "webhooks:write", "events:read", "events:write"],
      }),
    });
    env = {
      HOME: home,
      HOOKFLOW_URL: hookflow.base,
      HOOKFLOW_API_KEY: ((await key.json()) as { key: string }).key,
    };
  }, 60_000);
  afterAll(async () => {
    await receiver?.close();
    await hookflow?.stop();
    if (home) await rm(home, { recursive: true, force: true });
  });

  const createWebhook = async (name: string, targetUrl = `${receiver.url}/hook`) => {
    const run = await runCli(
      ["webhooks", "create", "--name", name, "--target-url", targetUrl, "--json"],
      env,
    );
    expect([run.code, run.stderr]).toEqual([0, ""]);
    return JSON.parse(run.stdout) as { id: string; ingressToken: string; signingSecret: string };
  };
  const send = async (ingressToken: string, body: string) => {
    const response = await fetch(`${hookflow.base}/api/in/${ingressToken}`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-sender": "test" },
      body,
    });
    return ((await response.json()) as { eventId: string }).eventId;
  };

  it("explains a missing key, an unreachable server, a bad key, a 404 and bad input", async () => {
    const noKey = await runCli(["webhooks", "list"], { HOME: home, HOOKFLOW_URL: hookflow.base });
    expect(noKey.code).toBe(1);
    expect(noKey.stderr).toMatch(/no credential: set HOOKFLOW_API_KEY .* or run `hookflow login`/);
    const offline = await runCli(["webhooks", "list"], {
      ...env,
      HOOKFLOW_URL: "http://127.0.0.1:9",
    });
    expect(offline.code).toBe(1);
    expect(offline.stderr).toMatch(
      /Could not reach http:\/\/127\.0\.0\.1:9 .*is HOOKFLOW_URL right\?/,
    );
    const badKey = await runCli(["webhooks", "list"], { ...env, HOOKFLOW_API_KEY: "hf_live_nope" });
    expect([badKey.code, badKey.stderr]).toEqual([
      1,
      "hookflow: 401 Unauthorized: Invalid or revoked API key (check HOOKFLOW_API_KEY)\n",
    ]);
    const missing = await runCli(["webhooks", "get", "wh_missing"], env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^hookflow: 404 Not Found: /);
    const wrong = await runCli(["events", "list", "--status", "lost"], env);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain("--status must be one of pending");
  });

  it("logs in, stores the session 0600, lists and gets webhooks with it, and logs out", async () => {
    const configFile = join(home, ".config", "hookflow", "config.json");
    const loggedIn = await runCli(["login", "--email", email, "--password", password], {
      HOME: home,
      HOOKFLOW_URL: hookflow.base,
    });
    expect([loggedIn.code, loggedIn.stderr]).toEqual([0, ""]);
    expect(loggedIn.stdout).toContain(`Logged in to ${hookflow.base} as ${email}`);
    expect((await stat(configFile)).mode & 0o777).toBe(0o600);
    const asSession = { HOME: home, HOOKFLOW_URL: hookflow.base };
    const created = await runCli(
      ["webhooks", "create", "--name", "from login", "--json"],
      asSession,
    );
    expect(created.code).toBe(0);
    const webhook = JSON.parse(created.stdout);
    const list = await runCli(["webhooks", "list", "--json"], asSession);
    expect(JSON.parse(list.stdout).items.map((w: { id: string }) => w.id)).toContain(webhook.id);
    const table = await runCli(["webhooks", "list"], asSession);
    expect(table.stdout).toMatch(/^ID +NAME +ACTIVE +HEALTH +TARGET\n/);
    const get = await runCli(["webhooks", "get", webhook.id], asSession);
    expect(get.stdout).toMatch(new RegExp(`id +${webhook.id}`));
    // The stored session is not sent to another server.
    const elsewhere = await runCli(["webhooks", "list"], {
      HOME: home,
      HOOKFLOW_URL: "http://127.0.0.1:9",
    });
    expect(elsewhere.stderr).toContain("no credential");
    const stored = JSON.parse(await readFile(configFile, "utf8")) as { token: string };
    const out = await runCli(["logout"], asSession);
    expect(out.stdout).toBe(`Logged out of ${hookflow.base}\n`);
    await expect(stat(configFile)).rejects.toThrow();
    const ended = await fetch(`${hookflow.base}/api/auth/me`, {
      headers: { authorization: `Bearer ${stored.token}` },
    });
    expect(ended.status).toBe(401);
    const other = await fetch(`${hookflow.base}/api/auth/me`, {
      headers: { authorization: `Bearer ${session}` },
    });
    expect(other.status).toBe(200); // the user's other session is untouched
  });

  it("lists, gets and replays events, and replays all failed ones with progress", async () => {
    receiver.respondWith(() => ({ status: 500, body: "down" }));
    const webhook = await createWebhook("failing");
    const patched = await fetch(`${hookflow.base}/api/webhooks/${webhook.id}`, {
      method: "PATCH",
      headers: {
        "content-type": "application/json",
        authorization: `Bearer ${env.HOOKFLOW_API_KEY}`,
      },
      body: JSON.stringify({ maxRetries: 0 }),
    });
    expect(patched.status).toBe(200);
    const ids = [
      await send(webhook.ingressToken, '{"n":1}'),
      await send(webhook.ingressToken, '{"n":2}'),
    ];
    await waitUntil(async () => {
      const run = await runCli(
        ["events", "list", "--webhook", webhook.id, "--status", "failed", "--json"],
        env,
      );
      return JSON.parse(run.stdout).total === 2 ? true : undefined;
    });
    const table = await runCli(["events", "list", "--webhook", webhook.id], env);
    expect(table.stdout).toMatch(/^ID +STATUS +TYPE +ATTEMPTS +LAST +CREATED\n/);
    const got = await runCli(["events", "get", ids[0]!, "--json"], env);
    expect(JSON.parse(got.stdout)).toMatchObject({
      id: ids[0],
      status: "failed",
      payload: { n: 1 },
    });

    receiver.respondWith(() => ({ status: 200, body: "ok" }));
    const all = await runCli(["events", "replay-all", webhook.id, "--json"], env);
    expect(all.code).toBe(0);
    expect(all.stderr).toContain(
      `Replaying 2 failed events of ${webhook.id}...\nQueued 2 events\n`,
    );
    expect(JSON.parse(all.stdout)).toMatchObject({
      queued: 2,
      failedBefore: 2,
      failedAfter: 0,
      waiting: 0,
    });
    const one = await runCli(["events", "replay", ids[1]!], env);
    expect([one.code, one.stdout]).toEqual([0, `Replaying ${ids[1]}\n`]);
  });

  it("tails a webhook's events and their steps", async () => {
    const webhook = await createWebhook("tailed");
    const tail = spawnCli(["events", "tail", webhook.id], env);
    await waitUntil(() => (tail.out.stderr.includes("Ready: following") ? true : undefined));
    const eventId = await send(webhook.ingressToken, '{"tail":true}');
    await waitUntil(() => (tail.out.stdout.includes(`${eventId} done`) ? true : undefined));
    tail.child.kill("SIGINT");
    expect(await tail.exited).toBe(0);
    expect(tail.out.stdout).toContain(`${eventId} started`);
    expect(tail.out.stdout).toMatch(new RegExp(`${eventId} done: delivered \\(200\\)`));
  });

  it("listen forwards each new event to a local URL, signed with the webhook's secret", async () => {
    const webhook = await createWebhook("listened", "");
    const local = await startReceiver();
    local.respondWith(() => ({ status: 201, body: "created" }));
    const listen = spawnCli(["listen", webhook.id, "--forward-to", `${local.url}/hooks`], env);
    try {
      await waitUntil(() => (listen.out.stderr.includes("Ready: forwarding") ? true : undefined));
      const body = '{"type":"order.created","id":7}';
      const eventId = await send(webhook.ingressToken, body);
      const [forwarded] = await local.waitForRequests(1);
      expect(forwarded!.path).toBe("/hooks");
      expect(JSON.parse(forwarded!.body.toString())).toEqual({ type: "order.created", id: 7 });
      expect(forwarded!.headers["x-hookflow-event-id"]).toBe(eventId);
      expect(forwarded!.headers["x-sender"]).toBe("test");
      expect(
        await verifyWebhook(
          forwarded!.headers as Record<string, string>,
          forwarded!.body,
          webhook.signingSecret,
        ),
      ).toMatchObject({ ok: true, eventId });
      await waitUntil(() => (listen.out.stdout.includes(eventId) ? true : undefined));
      expect(listen.out.stdout).toMatch(
        new RegExp(`${eventId} order\\.created -> POST ${local.url}/hooks 201 \\(\\d+ ms\\)\\n$`),
      );
    } finally {
      listen.child.kill("SIGINT");
      await listen.exited;
      await local.close();
    }
  });
});
