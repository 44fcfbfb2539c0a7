import { eventStepBatches, events } from "@hookflow/db";
import { newId } from "@hookflow/domain";
import { createApiKeyFor, createUserWithSession } from "./fixtures.js";
import { type ApiHarness, startApi } from "./harness.js";
import { insertWebhookRow } from "./nodes-fixtures.js";

let api: ApiHarness;
let owner: { userId: string; token: string };
let eventId: string;

beforeAll(async () => {
  api = await startApi();
  const db = api.database.db;
  owner = await createUserWithSession(db);
  const webhookId = await insertWebhookRow(db, owner.userId, { name: "steps" });
  eventId = newId("event");
  await db.insert(events).values({ id: eventId, webhookId, body: "{}", status: "failed" });
  const at = "2030-01-01T00:00:00.000Z";
  // Two jobs' batches: the steps come back in batch order, then in each batch's own order.
  await db.insert(eventStepBatches).values([
    {
      eventId,
      steps: [
        { nodeType: "transform", nodeId: "trn_1", nodeName: "reshape", status: "running", at },
        {
          nodeType: "transform",
          nodeId: "trn_1",
          nodeName: "reshape",
          status: "success",
          durationMs: 3,
          lastPayload: { a: 1 },
          at,
        },
      ],
    },
    {
      eventId,
      steps: [
        {
          nodeType: "schemaValidator",
          nodeId: "sv_1",
          status: "error",
          durationMs: 0,
          error: "a: expected string, got integer",
          at,
        },
      ],
    },
  ]);
});

afterAll(async () => {
  await api.close();
});

describe("GET /api/events/:id/steps", () => {
  it("lists the event's recorded steps oldest first", async () => {
    const res = await api.call("GET", `/api/events/${eventId}/steps`, { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      {
        eventId,
        nodeType: "transform",
        nodeId: "trn_1",
        nodeName: "reshape",
        status: "running",
        at: "2030-01-01T00:00:00.000Z",
      },
      {
        eventId,
        nodeType: "transform",
        nodeId: "trn_1",
        nodeName: "reshape",
        status: "success",
        durationMs: 3,
        lastPayload: { a: 1 },
        at: "2030-01-01T00:00:00.000Z",
      },
      {
        eventId,
        nodeType: "schemaValidator",
        nodeId: "sv_1",
        status: "error",
        durationMs: 0,
        error: "a: expected string, got integer",
        at: "2030-01-01T00:00:00.000Z",
      },
    ]);
  });

  it("answers 404 for an unknown event", async () => {
    const res = await api.call("GET", `/api/events/${newId("event")}/steps`, {
      token: owner.token,
    });
    expect(res.status).toBe(404);
  });

  it("answers 403 for another owner's event", async () => {
    const other = await createUserWithSession(api.database.db);
    const res = await api.call("GET", `/api/events/${eventId}/steps`, { token: other.token });
    expect(res.status).toBe(403);
  });

  it("answers 403 to a key without events:read", async () => {
    const { key } = await createApiKeyFor(api.database.db, owner.userId, {
      scopes: ["webhooks:read"],
    });
    const res = await api.call("GET", `/api/events/${eventId}/steps`, { token: key });
    expect(res.status).toBe(403);
  });

  it("answers 401 without credentials", async () => {
    const res = await api.call("GET", `/api/events/${eventId}/steps`);
    expect(res.status).toBe(401);
  });
});
