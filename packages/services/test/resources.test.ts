import { findCredentialById, insertUser } from "@hookflow/db";
import { ForbiddenError, NotFoundError, newId } from "@hookflow/domain";
import { createLogger } from "@hookflow/observability";
import {
  closeDeliveryQueues,
  createDeliveryQueues,
  createScheduleQueue,
  redisKeys,
} from "@hookflow/queue";
import {
  createTestDatabase,
  createTestRedisPrefix,
  type TestDatabase,
  type TestRedisPrefix,
  testKeyRing,
} from "@hookflow/testing";
import { Redis } from "ioredis";
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
  SCOPES,
  type ServiceContext,
  showApprovalLink,
  updateCredential,
} from "../src/index.js";

let database: TestDatabase;
let redisPrefix: TestRedisPrefix;
let redis: Redis;
let ctx: ServiceContext & { config: { secret: string } };
let alice: Actor;
let bob: Actor;

function actorOf(userId: string): Actor {
  return {
    kind: "session",
    userId,
    organizationId: null,
    memberships: new Map(),
    scopes: new Set(SCOPES),
    apiKeyId: null,
    credentialId: `ses_${userId}`,
    restrictedToOrganization: null,
  };
}

async function newUser(name: string): Promise<Actor> {
  const now = new Date();
  const id = newId("user", now.getTime());
  await insertUser(database.db, {
    id,
    email: `${name}-${id}@example.test`,
    name,
    passwordHash: "x",
    now,
  });
  return actorOf(id);
}

beforeAll(async () => {
  database = await createTestDatabase();
  redisPrefix = createTestRedisPrefix();
  redis = new Redis(redisPrefix.url, { maxRetriesPerRequest: null });
  const base: ServiceContext = {
    db: database,
    redis,
    keys: redisKeys(redisPrefix.prefix),
    queues: createDeliveryQueues({ connection: redis, prefix: redisPrefix.prefix }),
    schedules: createScheduleQueue({ connection: redis, prefix: redisPrefix.prefix }),
    keyRing: testKeyRing(),
    logger: createLogger({ level: "silent", role: "test" }),
    now: () => new Date(),
  };
  ctx = {
    ...base,
    config: { secret: "test-secret-test-secret-test-secret-123" },
  };
  alice = await newUser("alice");
  bob = await newUser("bob");
});

afterAll(async () => {
  await closeDeliveryQueues(ctx.queues);
  await ctx.schedules.close();
  redis.disconnect();
  await redisPrefix.destroy();
  await database.destroy();
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
