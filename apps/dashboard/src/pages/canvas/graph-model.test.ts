import { buildGraph, type NodeRecord, type WebhookRef } from "./graph-model";
import type { NodeFamily } from "./node-families";

const family = (segment: string, nodeType: string): NodeFamily => ({
  segment,
  nodeType,
  label: segment,
  createSchema: {},
  updateSchema: {},
});
const webhook = (id: string, extra: Partial<WebhookRef> = {}): WebhookRef => ({
  id,
  name: id,
  isActive: true,
  targetUrl: "https://example.com",
  ...extra,
});
const record = (id: string, extra: Partial<NodeRecord> = {}): NodeRecord => ({
  id,
  name: id,
  inputNodes: [],
  ...extra,
});

describe("the canvas graph", () => {
  it("draws a webhook's chain step by step", () => {
    const root = webhook("w1", { chainWebhookIds: ["w2", "w3"] });
    const graph = buildGraph(root, [root, webhook("w2"), webhook("w3")], []);
    expect(graph.nodes.map((n) => [n.id, n.depth])).toEqual([
      ["webhook-w1", 0],
      ["webhook-w2", 1],
      ["webhook-w3", 2],
    ]);
    expect(graph.edges).toEqual([
      expect.objectContaining({ source: "webhook-w1", target: "webhook-w2", kind: "chain" }),
      expect.objectContaining({ source: "webhook-w2", target: "webhook-w3", kind: "chain" }),
    ]);
  });

  it("draws targets and actions as inputs, and flow links and AI tools into their webhooks", () => {
    const root = webhook("w1");
    const fromRoot = [{ nodeType: "webhook", nodeId: "w1" }];
    const graph = buildGraph(
      root,
      [root, webhook("w2"), webhook("w3")],
      [
        {
          family: family("additional-targets", "additionalTarget"),
          record: record("tgt_1", { inputNodes: fromRoot }),
        },
        {
          family: family("http-actions", "httpAction"),
          record: record("act_1", { inputNodes: fromRoot }),
        },
        {
          family: family("flow-links", "flowLink"),
          record: record("flk_1", { inputNodes: fromRoot, webhookId: "w2" }),
        },
        {
          family: family("ai-nodes", "ai"),
          record: record("ai_1", { inputNodes: fromRoot, toolWebhookIds: ["w3"] }),
        },
      ],
    );
    const edges = graph.edges.map((e) =>
      `${e.source} ${e.kind} ${e.target} ${e.field ?? ""}`.trim(),
    );
    expect(edges).toEqual(
      expect.arrayContaining([
        "webhook-w1 input tgt_1",
        "webhook-w1 input act_1",
        "flk_1 forward webhook-w2 webhookId",
        "ai_1 forward webhook-w3 toolWebhookIds",
      ]),
    );
  });

  it("shows a schedule that feeds the webhook beside it, with its edge into the webhook", () => {
    const root = webhook("w1");
    const graph = buildGraph(
      root,
      [root],
      [
        {
          family: family("scheduled-workflows", "scheduledWorkflow"),
          record: record("swf_1", { webhookId: "w1" }),
        },
      ],
    );
    expect(graph.nodes.find((n) => n.id === "swf_1")?.orphan).toBe(true);
    expect(graph.edges).toEqual([
      expect.objectContaining({ source: "swf_1", target: "webhook-w1", kind: "forward" }),
    ]);
  });
});
