import { toolNameOf } from "@hookflow/pipeline";
import { enqueueDeliveries } from "@hookflow/queue";
import {
  answerReply,
  type ChatStandIn,
  createTestRedisPrefix,
  type Receiver,
  startChatStandIn,
  startReceiver,
  toolCallReply,
} from "@hookflow/testing";
import { startWorker } from "../../src/start-worker.js";
import { buildTestWorkerServices, startWorkerHarness, type WorkerHarness } from "../harness.js";
import { createNode, fromWebhook, recordedSteps } from "../pipeline/pipeline-harness.js";

let h: WorkerHarness;
let receiver: Receiver;
let model: ChatStandIn;

beforeAll(async () => {
  h = await startWorkerHarness();
  receiver = await startReceiver();
  model = await startChatStandIn();
});

afterAll(async () => {
  await h.close();
  await receiver.close();
  await model.close();
});

const bodiesAt = (path: string) =>
  receiver.requests
    .filter((r) => r.path === path)
    .map((r) => JSON.parse(r.body.toString("utf8")) as unknown);

/** A tool webhook: validates `amount`, then reshapes it. */
async function toolWebhook(consent = true) {
  const tool = await h.createWebhook({
    targetUrl: `${receiver.url}/tool-target`,
    acceptsInternalCalls: consent,
  });
  const validator = await createNode(
    h,
    "schemaValidator",
    { fields: [{ path: "amount", type: "number", required: true, constraints: { min: 1 } }] },
    [fromWebhook(tool.id)],
  );
  await createNode(h, "transform", { transformMode: "jq", template: "{checked: .amount}" }, [
    { nodeType: "schemaValidator", nodeId: validator.id },
  ]);
  return tool;
}

async function aiGraph(path: string, toolWebhookIds: string[], maxToolCalls = 5) {
  const source = await h.createWebhook({ targetUrl: `${receiver.url}${path}` });
  const ai = await createNode(
    h,
    "aiNode",
    {
      baseUrl: model.url,
      model: "stand-in-1",
      systemPrompt: "You check orders.",
      promptTemplate: "Check order {{id}} of {{amount}}",
      toolWebhookIds,
      maxToolCalls,
    },
    [fromWebhook(source.id)],
  );
  return { source, ai };
}

describe("AI nodes", () => {
  it("call a webhook tool, then send the final answer downstream", async () => {
    const tool = await toolWebhook();
    const { source, ai } = await aiGraph("/ai-final", [tool.id]);
    const name = toolNameOf(tool.id);
    const start = model.requests.length;
    model.script((_request, index) =>
      index === start ? toolCallReply(name, { amount: 5 }) : answerReply('{"verdict":"ok"}'),
    );
    const { id } = await h.createEvent(source, { body: JSON.stringify({ id: 9, amount: 5 }) });
    await h.waitForStatus(id, "delivered");
    expect(bodiesAt("/ai-final")).toEqual([{ verdict: "ok" }]);

    const [first, second] = model.requests.slice(start);
    expect(first?.path).toBe("/v1/chat/completions");
    expect(first?.authorization).toBeUndefined();
    expect(first?.body.model).toBe("stand-in-1");
    expect(first?.body.messages).toEqual([
      { role: "system", content: "You check orders." },
      { role: "user", content: "Check order 9 of 5" },
    ]);
    expect(first?.body.tools).toEqual([
      {
        type: "function",
        function: {
          name,
          description: expect.stringContaining(tool.id),
          parameters: {
            type: "object",
            properties: { amount: { type: "number", minimum: 1 } },
            required: ["amount"],
          },
        },
      },
    ]);
    const toolMessage = second?.body.messages?.at(-1);
    expect(toolMessage).toMatchObject({ role: "tool", tool_call_id: "call_1" });
    expect(JSON.parse(String(toolMessage?.content))).toEqual({
      status: "delivered",
      output: { checked: 5 },
    });
    // The tool's pipeline ran in process: nothing was delivered to its own target.
    expect(bodiesAt("/tool-target")).toEqual([]);
    const step = (await recordedSteps(h, id)).find(
      (s) => s.nodeId === ai.id && s.status === "success",
    );
    expect(step?.lastPayload).toEqual({ verdict: "ok" });
    expect(step?.detail).toEqual({
      usage: { promptTokens: 30, completionTokens: 12, totalTokens: 42, modelCalls: 2 },
      toolCalls: [{ webhookId: tool.id, status: "delivered" }],
    });
  });

  it("stop a model that loops on tool calls at maxToolCalls", async () => {
    const tool = await toolWebhook();
    const { source, ai } = await aiGraph("/ai-loop", [tool.id], 2);
    const start = model.requests.length;
    model.script((_request, index) =>
      toolCallReply(toolNameOf(tool.id), { amount: 1 }, `c${index}`),
    );
    const { id } = await h.createEvent(source, { body: JSON.stringify({ id: 1, amount: 1 }) });
    const event = await h.waitForStatus(id, "failed");
    expect(event.lastError).toContain("kept calling tools after maxToolCalls (2)");
    // Two rounds with tools, then one without: three model calls, two tool runs.
    const calls = model.requests.slice(start);
    expect(calls).toHaveLength(3);
    expect(calls[2]?.body.tools).toBeUndefined();
    const step = (await recordedSteps(h, id)).find(
      (s) => s.nodeId === ai.id && s.status === "error",
    );
    expect(step?.error).toContain("maxToolCalls");
    expect(bodiesAt("/ai-loop")).toEqual([]);
  });

  it("answer a tool call as blocked when the webhook withdrew its consent", async () => {
    const tool = await toolWebhook(false);
    const { source } = await aiGraph("/ai-blocked", [tool.id]);
    const start = model.requests.length;
    model.script((_request, index) =>
      index === start ? toolCallReply(toolNameOf(tool.id), { amount: 5 }) : answerReply("done"),
    );
    const { id } = await h.createEvent(source, { body: JSON.stringify({ id: 2, amount: 5 }) });
    await h.waitForStatus(id, "delivered");
    const toolMessage = model.requests[start + 1]?.body.messages?.at(-1);
    expect(JSON.parse(String(toolMessage?.content))).toMatchObject({ status: "blocked" });
    expect(receiver.requests.filter((r) => r.path === "/ai-blocked")[0]?.body.toString()).toBe(
      "done",
    );
  });

  it("retry a 429 after its Retry-After", async () => {
    const { source } = await aiGraph("/ai-retry", []);
    const start = model.requests.length;
    model.script((_request, index) =>
      index === start
        ? { status: 429, headers: { "retry-after": "1" }, body: { error: "slow down" } }
        : answerReply('{"ok":true}'),
    );
    const { id } = await h.createEvent(source, { body: JSON.stringify({ id: 3, amount: 1 }) });
    await h.waitForStatus(id, "delivered");
    expect(model.requests.slice(start)).toHaveLength(2);
    expect(bodiesAt("/ai-retry")).toEqual([{ ok: true }]);
  });

  it("use the plugged-in credential resolver and extra tools (the seams for credentials and Gmail)", async () => {
    const redis = createTestRedisPrefix();
    const owners: unknown[] = [];
    const plugged = buildTestWorkerServices(
      h.database,
      redis,
      {},
      {},
      {
        resolveBearerToken: async (owner, credentialId) => {
          owners.push({ owner, credentialId });
          return credentialId === "cred_ok" ? "sk-test" : undefined;
        },
        aiTools: async () => [
          {
            name: "gmail_send",
            description: "Sends a mail",
            parameters: { type: "object", properties: { to: { type: "string" } } },
            run: async (args) => ({
              content: JSON.stringify({ sent: JSON.parse(args) }),
              status: "sent",
            }),
          },
        ],
      },
    );
    const worker = await startWorker(plugged);
    try {
      const source = await h.createWebhook({ targetUrl: `${receiver.url}/ai-plugged` });
      const ai = await createNode(
        h,
        "aiNode",
        {
          baseUrl: model.url,
          model: "stand-in-1",
          credentialId: "cred_ok",
          promptTemplate: "Mail {{to}}",
          maxToolCalls: 1,
        },
        [fromWebhook(source.id)],
      );
      const start = model.requests.length;
      model.script((_request, index) =>
        index === start ? toolCallReply("gmail_send", { to: "a@b.test" }) : answerReply("sent"),
      );
      const { id } = await h.createEvent(source, { body: '{"to":"a@b.test"}', enqueue: false });
      await enqueueDeliveries(plugged.queues, [
        { priority: source.priority, data: { eventId: id, webhookId: source.id } },
      ]);
      await h.waitForStatus(id, "delivered");
      const [first, second] = model.requests.slice(start);
      expect(first?.authorization).toBe("Bearer sk-test");
      expect(first?.body.tools?.map((t) => (t.function as { name: string }).name)).toEqual([
        "gmail_send",
      ]);
      expect(JSON.parse(String(second?.body.messages?.at(-1)?.content))).toEqual({
        sent: { to: "a@b.test" },
      });
      expect(owners).toEqual([
        { owner: { ownerId: h.ownerId, organizationId: null }, credentialId: "cred_ok" },
      ]);
      const step = (await recordedSteps(h, id)).find(
        (s) => s.nodeId === ai.id && s.status === "success",
      );
      expect(step?.detail).toMatchObject({ toolCalls: [{ tool: "gmail_send", status: "sent" }] });
    } finally {
      await worker.close();
      await plugged.close();
      await redis.destroy();
    }
  });

  it("fail a node whose credential the resolver does not know", async () => {
    const { source, ai } = await aiGraph("/ai-nocred", []);
    await h.services.db
      .sql`update pipeline_nodes set config = config || '{"credentialId":"cred_x"}'::jsonb where id = ${ai.id}`;
    await h.services.redis.publish(
      h.services.keys.graphChangedChannel,
      JSON.stringify({ nodeId: ai.id }),
    );
    const start = model.requests.length;
    const { id } = await h.createEvent(source, { body: '{"id":1}' });
    const event = await h.waitForStatus(id, "failed");
    expect(event.lastError).toContain("credentialId: credential cred_x cannot be used");
    expect(model.requests.length).toBe(start);
  });
});
