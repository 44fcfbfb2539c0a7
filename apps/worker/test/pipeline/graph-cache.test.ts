import { pipelineNodes } from "@hookflow/db";
import { newPrefixedId } from "@hookflow/domain";
import { type Receiver, startReceiver } from "@hookflow/testing";
import { startWorkerHarness, type WorkerHarness } from "../harness.js";
import { createNode, eventually, fromNode, fromWebhook } from "./pipeline-harness.js";

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

describe("the worker's graph cache", () => {
  it("loads the nodes reachable from the webhook in graph order, and no others", async () => {
    const webhook = await h.createWebhook({ targetUrl: receiver.url });
    const other = await h.createWebhook({ targetUrl: receiver.url });
    const transform = await createNode(h, "transform", { transformMode: "jq", template: "." }, []);
    const limiter = await createNode(
      h,
      "rateLimiter",
      { maxEvents: 5, windowSeconds: 60, outputTransformIds: [transform.id] },
      [fromWebhook(webhook.id)],
    );
    const after = await createNode(h, "filter", { filters: [{ field: "a", operator: "exists" }] }, [
      fromNode(transform),
    ]);
    await createNode(h, "filter", { filters: [{ field: "a", operator: "exists" }] }, [
      fromWebhook(other.id),
    ]);
    const graph = await h.services.pipeline.graphs.get(webhook.id);
    expect(graph.order).toEqual([limiter.id, transform.id, after.id]);
    expect(graph.stateful).toBe(true);
  });

  it("reloads a cached graph when a node changes (graph-changed message)", async () => {
    const webhook = await h.createWebhook({ targetUrl: receiver.url });
    expect((await h.services.pipeline.graphs.get(webhook.id)).order).toEqual([]);
    const filter = await createNode(
      h,
      "filter",
      { filters: [{ field: "a", operator: "exists" }] },
      [fromWebhook(webhook.id)],
    );
    await eventually("the new node in the cached graph", async () => {
      const graph = await h.services.pipeline.graphs.get(webhook.id);
      return graph.order.includes(filter.id) ? graph : undefined;
    });
    const { id } = await h.createEvent(webhook, { body: '{"b":1}' });
    await h.waitForStatus(id, "filtered");
  });

  it("keeps cached graphs when a canvas snapshot changes, and drops them when a node does", async () => {
    const webhook = await h.createWebhook({ targetUrl: receiver.url });
    const sentinel = await h.createWebhook({ targetUrl: receiver.url });
    expect((await h.services.pipeline.graphs.get(webhook.id)).order).toEqual([]);
    expect((await h.services.pipeline.graphs.get(sentinel.id)).order).toEqual([]);
    // Nodes written behind the cache's back: only a message can make it look again.
    const insertFilter = async (webhookId: string) => {
      const id = newPrefixedId("fltn");
      await h.database.db.insert(pipelineNodes).values({
        id,
        family: "filter",
        ownerId: h.ownerId,
        name: "unannounced",
        config: { filterMode: "and", filters: [{ field: "a", operator: "exists" }] },
        inputNodes: [fromWebhook(webhookId)],
      });
      return id;
    };
    const hidden = await insertFilter(webhook.id);
    const sentinelNode = await insertFilter(sentinel.id);
    const publish = (channel: string, message: object) =>
      h.services.redis.publish(channel, JSON.stringify(message));

    await publish(h.services.keys.graphChangedChannel, { nodeId: newPrefixedId("cvs") });
    // Messages reach the subscriber in order: once the sentinel's graph reloads, the snapshot
    // message before it has been handled.
    await publish(h.services.keys.webhookChangedChannel, { webhookId: sentinel.id });
    await eventually("the sentinel webhook's graph reloaded", async () => {
      const graph = await h.services.pipeline.graphs.get(sentinel.id);
      return graph.order.includes(sentinelNode) ? graph : undefined;
    });
    expect((await h.services.pipeline.graphs.get(webhook.id)).order).toEqual([]);

    await publish(h.services.keys.graphChangedChannel, { nodeId: hidden });
    await eventually("the graph reloaded after a node change", async () => {
      const graph = await h.services.pipeline.graphs.get(webhook.id);
      return graph.order.includes(hidden) ? graph : undefined;
    });
  });

  it("fails events of a webhook whose stored graph has a cycle, naming it", async () => {
    const webhook = await h.createWebhook({ targetUrl: receiver.url });
    const a = await createNode(h, "filter", { filters: [{ field: "a", operator: "exists" }] }, [
      fromWebhook(webhook.id),
    ]);
    const b = await createNode(h, "filter", { filters: [{ field: "a", operator: "exists" }] }, [
      fromNode(a),
    ]);
    // A cycle the API would refuse, written behind its back: b -> a -> b.
    const inputs = [fromWebhook(webhook.id), fromNode(b)];
    await h.services.db.sql`
      update pipeline_nodes set input_nodes = ${JSON.stringify(inputs)}::jsonb where id = ${a.id}`;
    await h.services.redis.publish(
      h.services.keys.graphChangedChannel,
      JSON.stringify({ nodeId: a.id }),
    );
    await eventually("the cycle in the cached graph", async () => {
      const graph = await h.services.pipeline.graphs.get(webhook.id);
      return graph.broken ? graph : undefined;
    });
    const { id } = await h.createEvent(webhook, { body: '{"a":1}' });
    const event = await h.waitForStatus(id, "failed");
    expect(event.lastError).toMatch(/the node graph has a cycle/);
    expect(receiver.requests).toHaveLength(0);
  });
});
