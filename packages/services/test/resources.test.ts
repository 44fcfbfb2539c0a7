import { findCredentialById } from "@hookflow/db";
import { ForbiddenError, NotFoundError } from "@hookflow/domain";
import type { TestDatabase } from "@hookflow/testing";
import {
  type Actor,
  createCanvasSnapshot,
  createCredential,
  decideApprovalEvent,
  deleteCanvasSnapshot,
  deleteCredential,
  getCanvasSnapshot,
  getCredential,
  listCanvasSnapshots,
  listCredentials,
  showApprovalLink,
  updateCredential,
} from "../src/index.js";
import { insertTwoActors } from "./fixtures.js";
import { createTestContext, type TestContext } from "./service-context.js";

let database: TestDatabase;
let ctx: TestContext<{ config: { secret: string } }>;
let alice: Actor;
let bob: Actor;

beforeAll(async () => {
  ctx = await createTestContext({
    config: { secret: "test-secret-test-secret-test-secret-123" },
  });
  database = ctx.database;
  ({ alice, bob } = await insertTwoActors(database.db));
});

afterAll(async () => {
  await ctx.close();
});

describe("credential verbs", () => {
  it("store the data sealed and answer only its preview", async () => {
    const created = await createCredential(ctx, alice, {
      name: "api",
      type: "basic",
      data: { username: "svc", password: "s3cret-pass" },
    });
    expect(created).toMatchObject({ name: "api", type: "basic", ownerId: alice.userId });
    expect(created.preview).toEqual({ username: "svc" });
    const row = await findCredentialById(database.db, created.id);
    expect(row?.data).not.toContain("s3cret-pass");
    expect(JSON.stringify(await getCredential(ctx, alice, { id: created.id }))).not.toContain(
      "s3cret-pass",
    );

    const renamed = await updateCredential(ctx, alice, { id: created.id, name: "renamed" });
    expect(renamed.name).toBe("renamed");
    expect(renamed.preview).toEqual({ username: "svc" });
  });

  it("refuse another owner's credential and list only the actor's", async () => {
    const mine = await createCredential(ctx, bob, {
      name: "bob's",
      type: "bearer",
      data: { token: "bob-token" },
    });
    await expect(getCredential(ctx, alice, { id: mine.id })).rejects.toBeInstanceOf(ForbiddenError);
    await expect(deleteCredential(ctx, alice, { id: mine.id })).rejects.toBeInstanceOf(
      ForbiddenError,
    );
    const { items, total } = await listCredentials(ctx, bob, { page: 1, limit: 20 });
    expect(total).toBe(1);
    expect(items.map((item) => item.id)).toEqual([mine.id]);

    await deleteCredential(ctx, bob, { id: mine.id });
    expect(await findCredentialById(database.db, mine.id)).toBeUndefined();
    await expect(getCredential(ctx, bob, { id: mine.id })).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe("canvas snapshot verbs", () => {
  it("store a layout, show it to its owner only, and delete it", async () => {
    const nodes = [{ id: "note-1", type: "note", position: { x: 0, y: 0 }, data: {} }];
    const created = await createCanvasSnapshot(ctx, alice, { name: "layout", nodes, edges: [] });
    expect(created).toMatchObject({ name: "layout", ownerId: alice.userId, nodes });
    expect(created.graph).toMatchObject({ version: 1, webhooks: [], nodes: [] });

    await expect(getCanvasSnapshot(ctx, bob, { id: created.id })).rejects.toBeInstanceOf(
      ForbiddenError,
    );
    const bobs = await listCanvasSnapshots(ctx, bob, { page: 1, limit: 20 });
    expect(bobs.total).toBe(0);

    await deleteCanvasSnapshot(ctx, alice, { id: created.id });
    await expect(getCanvasSnapshot(ctx, alice, { id: created.id })).rejects.toBeInstanceOf(
      NotFoundError,
    );
  });

  it("refuse an edge to a node the canvas does not hold", async () => {
    await expect(
      createCanvasSnapshot(ctx, alice, {
        name: "broken",
        nodes: [],
        edges: [{ source: "a", target: "b" }],
      }),
    ).rejects.toThrow("edges.0.source: Unknown canvas node a");
    expect((await listCanvasSnapshots(ctx, alice, { page: 1, limit: 20 })).total).toBe(0);
  });
});

describe("approval verbs", () => {
  it("answer 404 for an approval node or event that is not there", async () => {
    await expect(
      decideApprovalEvent(ctx, alice, {
        nodeId: "apr_none",
        eventId: "evt_none",
        decision: "approved",
      }),
    ).rejects.toBeInstanceOf(NotFoundError);
  });

  it("show a malformed link as invalid without reading anything", async () => {
    expect(await showApprovalLink(ctx, { token: "not-a-token" })).toEqual({
      kind: "invalid",
      reason: "malformed",
    });
  });
});
