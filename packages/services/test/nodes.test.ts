import { findAdditionalTargetById, findPipelineNodeById } from "@hookflow/db";
import { ForbiddenError, NotFoundError, ValidationError } from "@hookflow/domain";
import type { TestDatabase } from "@hookflow/testing";
import {
  type Actor,
  createNode,
  createTarget,
  deleteNode,
  deleteTarget,
  getNode,
  getTarget,
  listNodes,
  listScheduledWorkflowRuns,
  type NodeWriteContext,
  updateNode,
  updateTarget,
} from "../src/index.js";
import { insertTwoActors } from "./fixtures.js";
import { createTestContext, type TestContext } from "./service-context.js";

/** The node, target and schedule verbs called directly, against real Postgres and Redis. */

let database: TestDatabase;
let ctx: TestContext<Pick<NodeWriteContext, "config">>;
let alice: Actor;
let bob: Actor;

beforeAll(async () => {
  ctx = await createTestContext({
    config: {
      delayScale: 1,
      graphMaxDescendants: 100,
      graphMaxForwardDepth: 5,
      mailMaxRecipients: 50,
    },
  });
  database = ctx.database;
  ({ alice, bob } = await insertTwoActors(database.db));
});

afterAll(async () => {
  await ctx.close();
});

describe("node verbs", () => {
  it("stores a node of the actor, chains another to it and shows them only to their owner", async () => {
    const first = await createNode(ctx, alice, {
      family: "delay",
      body: { name: "wait", delaySeconds: 5 },
    });
    expect(first).toMatchObject({ family: "delay", ownerId: alice.userId, organizationId: null });
    const stored = await findPipelineNodeById(database.db, first.id);
    expect(stored?.config).toEqual({ delaySeconds: 5 });

    const second = await createNode(ctx, alice, {
      family: "delay",
      body: {
        name: "then",
        delaySeconds: 1,
        inputNodes: [{ nodeType: "delay", nodeId: first.id }],
      },
    });
    expect(second.inputNodes).toEqual([{ nodeType: "delay", nodeId: first.id }]);

    const page = await listNodes(ctx, alice, { family: "delay", page: 1, limit: 20 });
    expect(page.total).toBe(2);
    expect((await listNodes(ctx, bob, { family: "delay", page: 1, limit: 20 })).total).toBe(0);

    await expect(getNode(ctx, bob, { family: "delay", id: first.id })).rejects.toThrow(
      new ForbiddenError("Delay node belongs to another owner"),
    );
    // A node of another family is none.
    await expect(getNode(ctx, alice, { family: "merge", id: first.id })).rejects.toThrow(
      new NotFoundError("Merge node not found"),
    );
  });

  it("refuses references to records the actor cannot see and closing a cycle", async () => {
    const own = await createNode(ctx, alice, {
      family: "delay",
      body: { name: "a", delaySeconds: 2 },
    });
    await expect(
      createNode(ctx, bob, {
        family: "delay",
        body: { name: "b", delaySeconds: 2, inputNodes: [{ nodeType: "delay", nodeId: own.id }] },
      }),
    ).rejects.toThrow(new ValidationError(`inputNodes.0.nodeId: Unknown delay ${own.id}`));

    const next = await createNode(ctx, alice, {
      family: "delay",
      body: { name: "b", delaySeconds: 2, inputNodes: [{ nodeType: "delay", nodeId: own.id }] },
    });
    await expect(
      updateNode(ctx, alice, {
        family: "delay",
        id: own.id,
        body: { inputNodes: [{ nodeType: "delay", nodeId: next.id }] },
      }),
    ).rejects.toThrow(ValidationError);
    expect((await findPipelineNodeById(database.db, own.id))?.inputNodes).toEqual([]);
  });

  it("updates and deletes a node, detaching it from the nodes it fed", async () => {
    const source = await createNode(ctx, alice, {
      family: "delay",
      body: { name: "src", delaySeconds: 3 },
    });
    const fed = await createNode(ctx, alice, {
      family: "delay",
      body: {
        name: "fed",
        delaySeconds: 3,
        inputNodes: [{ nodeType: "delay", nodeId: source.id }],
      },
    });
    const renamed = await updateNode(ctx, alice, {
      family: "delay",
      id: source.id,
      body: { name: "renamed" },
    });
    expect(renamed).toMatchObject({ name: "renamed", config: { delaySeconds: 3 } });

    await expect(deleteNode(ctx, bob, { family: "delay", id: source.id })).rejects.toThrow(
      ForbiddenError,
    );
    await deleteNode(ctx, alice, { family: "delay", id: source.id });
    expect(await findPipelineNodeById(database.db, source.id)).toBeUndefined();
    expect((await findPipelineNodeById(database.db, fed.id))?.inputNodes).toEqual([]);
  });

  it("keeps a scheduled workflow's job scheduler in step with its writes", async () => {
    const workflow = await createNode(ctx, alice, {
      family: "scheduledWorkflow",
      body: {
        name: "nightly",
        cronExpression: "0 3 * * *",
        timezone: "UTC",
        url: "https://example.test/tick",
      },
    });
    expect(await ctx.schedules.getJobScheduler(workflow.id)).toMatchObject({
      pattern: "0 3 * * *",
    });
    const runs = await listScheduledWorkflowRuns(ctx, alice, {
      id: workflow.id,
      page: 1,
      limit: 5,
    });
    expect(runs).toEqual({ runs: [], total: 0 });
    await expect(
      listScheduledWorkflowRuns(ctx, bob, { id: workflow.id, page: 1, limit: 5 }),
    ).rejects.toThrow(ForbiddenError);

    await deleteNode(ctx, alice, { family: "scheduledWorkflow", id: workflow.id });
    expect(await ctx.schedules.getJobScheduler(workflow.id)).toBeUndefined();
  });
});

describe("target verbs", () => {
  const fields = {
    name: "mirror",
    url: "https://example.test/mirror",
    isActive: true,
    maxRetries: 3,
    inputNodes: [],
    filters: [],
    payloadTransform: null,
    notifyPrimaryOnFailure: false,
  };

  it("stores a target of the actor, within the plan's retries, visible to its owner only", async () => {
    const target = await createTarget(ctx, alice, fields);
    expect(await findAdditionalTargetById(database.db, target.id)).toMatchObject({
      ownerId: alice.userId,
      url: "https://example.test/mirror",
    });
    await expect(getTarget(ctx, bob, { id: target.id })).rejects.toThrow(
      new ForbiddenError("Target belongs to another owner"),
    );
    await expect(
      updateTarget(ctx, alice, { id: target.id, patch: { maxRetries: 10 } }),
    ).rejects.toThrow(
      new ForbiddenError(
        "maxRetries: 10 is above the free plan's limit of 3 retries for an additional target (free 3, pro 10)",
      ),
    );
    const updated = await updateTarget(ctx, alice, { id: target.id, patch: { isActive: false } });
    expect(updated).toMatchObject({ isActive: false, maxRetries: 3 });

    await deleteTarget(ctx, alice, { id: target.id });
    expect(await findAdditionalTargetById(database.db, target.id)).toBeUndefined();
    await expect(getTarget(ctx, alice, { id: target.id })).rejects.toThrow(
      new NotFoundError("Target not found"),
    );
  });

  it("refuses a webhook the actor cannot see", async () => {
    await expect(
      createTarget(ctx, alice, {
        ...fields,
        inputNodes: [{ nodeType: "webhook", nodeId: "wh_nope" }],
      }),
    ).rejects.toThrow(new ValidationError("inputNodes.0.nodeId: Unknown webhook wh_nope"));
  });
});
