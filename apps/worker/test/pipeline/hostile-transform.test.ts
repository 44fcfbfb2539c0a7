import { type Receiver, startReceiver } from "@hookflow/testing";
import { startWorkerHarness, type WorkerHarness } from "../harness.js";
import { createNode, fromWebhook, recordedSteps } from "./pipeline-harness.js";

let h: WorkerHarness;
let receiver: Receiver;

beforeAll(async () => {
  h = await startWorkerHarness();
  receiver = await startReceiver();
});

afterAll(async () => {
  await h.close();
  await receiver.close();
});

const HOSTILE = [
  ["javascript", "export default function () { while (true) {} }"],
  [
    "javascript",
    "export default function () { const a = []; for (;;) a.push(new Array(1e6).fill(1)); }",
  ],
  ["javascript", "export default function () { return process.exit(1); }"],
  [
    "javascript",
    "export default function () { return require('fs').readFileSync('/etc/passwd', 'utf8'); }",
  ],
  [
    "javascript",
    "export default async function () { return (await import('node:fs')).readFileSync('/etc/passwd'); }",
  ],
  ["jq", "def f: f; f"],
  ["jq", "[limit(100000000; repeat(1))]"],
  ["jq", `${"[".repeat(20000)}.${"]".repeat(20000)}`],
] as const;

describe("hostile transforms", () => {
  it("fail only their own events while the worker keeps delivering the others", async () => {
    const good = await h.createWebhook({ targetUrl: `${receiver.url}/good` });
    await createNode(
      h,
      "transform",
      { transformMode: "javascript", template: "export default (p) => ({ ...p, ok: true })" },
      [fromWebhook(good.id)],
    );
    const hostile = [];
    for (const [transformMode, template] of HOSTILE) {
      const webhook = await h.createWebhook({ targetUrl: `${receiver.url}/hostile` });
      const node = await createNode(h, "transform", { transformMode, template }, [
        fromWebhook(webhook.id),
      ]);
      hostile.push({ webhook, node });
    }
    const goodIds: string[] = [];
    const hostileIds: Array<{ id: string; nodeId: string }> = [];
    for (let i = 0; i < 10; i++) {
      goodIds.push((await h.createEvent(good, { body: `{"i":${i}}` })).id);
      const target = hostile[i % hostile.length];
      if (target && i < hostile.length) {
        const { id } = await h.createEvent(target.webhook, { body: `{"i":${i}}` });
        hostileIds.push({ id, nodeId: target.node.id });
      }
    }
    for (const id of goodIds) await h.waitForStatus(id, "delivered", 30_000);
    for (const { id, nodeId } of hostileIds) {
      const event = await h.waitForStatus(id, "failed", 30_000);
      expect(event.lastError).toBeTruthy();
      const steps = await recordedSteps(h, id);
      expect(steps.at(-1)).toMatchObject({ nodeId, status: "error" });
    }
    expect(receiver.requests.filter((r) => r.path === "/hostile")).toHaveLength(0);
    const goodBodies = receiver.requests
      .filter((r) => r.path === "/good")
      .map((r) => JSON.parse(r.body.toString("utf8")) as { i: number; ok: boolean });
    expect(goodBodies.map((b) => b.i).sort((a, b) => a - b)).toEqual([
      0, 1, 2, 3, 4, 5, 6, 7, 8, 9,
    ]);
    expect(goodBodies.every((b) => b.ok)).toBe(true);
  });

  it("fail an event whose payload nests past the depth limit at its webhook, before any node", async () => {
    const webhook = await h.createWebhook({ targetUrl: `${receiver.url}/deep` });
    await createNode(h, "transform", { transformMode: "jq", template: "." }, [
      fromWebhook(webhook.id),
    ]);
    const depth = 200_000;
    const { id } = await h.createEvent(webhook, {
      body: `${"[".repeat(depth)}${"]".repeat(depth)}`,
    });
    const event = await h.waitForStatus(id, "failed", 30_000);
    expect(event.lastError).toBe("the payload nests more than 1000 levels deep");
    const steps = await recordedSteps(h, id);
    expect(steps.at(-1)).toMatchObject({ nodeId: webhook.id, status: "error" });
    const { id: shallow } = await h.createEvent(webhook, { body: '{"ok":true}' });
    await h.waitForStatus(shallow, "delivered", 30_000);
    expect(receiver.requests.filter((r) => r.path === "/deep")).toHaveLength(1);
  });
});
