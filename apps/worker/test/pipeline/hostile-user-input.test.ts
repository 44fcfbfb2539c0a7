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

/**
 * Each attack used to hold the worker's event loop for seconds to minutes (a backtracking regex
 * on 31 characters; a template serializing a 250 KB payload on each of 45,000 loop turns), so
 * nothing else was delivered meanwhile and these tests ran past their time limit.
 */
async function attackAlongsideGoodTraffic(attack: {
  config: Record<string, unknown>;
  family: "schemaValidator" | "transform";
  body: string;
}): Promise<{ error: string | null; nodeId: string }> {
  const good = await h.createWebhook({ targetUrl: `${receiver.url}/good-${attack.family}` });
  const hostile = await h.createWebhook({ targetUrl: `${receiver.url}/hostile-${attack.family}` });
  const node = await createNode(h, attack.family, attack.config as never, [
    fromWebhook(hostile.id),
  ]);
  const { id: attackId } = await h.createEvent(hostile, { body: attack.body });
  const goodIds: string[] = [];
  for (let i = 0; i < 5; i++) goodIds.push((await h.createEvent(good, { body: `{"i":${i}}` })).id);
  for (const id of goodIds) await h.waitForStatus(id, "delivered", 30_000);
  const failed = await h.waitForStatus(attackId, "failed", 30_000);
  const steps = await recordedSteps(h, attackId);
  expect(steps.at(-1)).toMatchObject({ nodeId: node.id, status: "error" });
  expect(receiver.requests.filter((r) => r.path === `/hostile-${attack.family}`)).toHaveLength(0);
  expect(receiver.requests.filter((r) => r.path === `/good-${attack.family}`)).toHaveLength(5);
  return { error: failed.lastError, nodeId: node.id };
}

describe("hostile user input on the worker", () => {
  it("answers a catastrophic validator pattern in linear time while other events are delivered", async () => {
    const { error } = await attackAlongsideGoodTraffic({
      family: "schemaValidator",
      config: {
        strictMode: false,
        fields: [
          { path: "s", type: "string", required: true, constraints: { pattern: "^(a|a)*$" } },
        ],
      },
      body: JSON.stringify({ s: `${"a".repeat(30)}!` }),
    });
    expect(error).toBe("s: must match pattern ^(a|a)*$");
  });

  it("stops a Handlebars template that re-serializes the payload per loop turn, off the event loop", async () => {
    const { error } = await attackAlongsideGoodTraffic({
      family: "transform",
      config: {
        transformMode: "handlebars",
        template: "{{#each items}}{{#if (json @root)}}{{/if}}{{/each}}",
      },
      body: JSON.stringify({ items: Array.from({ length: 45_000 }, (_, i) => i) }),
    });
    expect(error).toMatch(
      /^handlebars template exceeded the 100 ms time limit$|characters written or serialized$/,
    );
  });
});
