import { deliveryAttempts } from "@hookflow/db";
import { newId } from "@hookflow/domain";
import { createApiKeyFor, createUserWithSession } from "./fixtures.js";
import { type ApiHarness, startApi } from "./harness.js";
import { insertEventRow, insertWebhookRow } from "./nodes-fixtures.js";

const FROM = "2030-01-01T00:00:00.000Z";
const TO = "2030-01-01T04:00:00.000Z";
const at = (minutes: number) => new Date(Date.parse(FROM) + minutes * 60_000);

describe("GET /api/events/timeline", () => {
  let api: ApiHarness;
  let owner: { userId: string; token: string };
  let webhookId: string;

  beforeAll(async () => {
    api = await startApi();
    const db = api.database.db;
    owner = await createUserWithSession(db);
    webhookId = await insertWebhookRow(db, owner.userId);
    // Hour 0: two delivered (latencies 100 and 300), one failed. Hour 2: one delivered (50).
    const rows: Array<[number, "delivered" | "failed", number | null]> = [
      [5, "delivered", 100],
      [20, "delivered", 300],
      [40, "failed", null],
      [130, "delivered", 50],
      [300, "delivered", 10], // after the window: left out
    ];
    for (const [minute, status, latency] of rows) {
      const eventId = await insertEventRow(
        db,
        webhookId,
        { n: minute },
        { status, createdAt: at(minute) },
      );
      await db.insert(deliveryAttempts).values({
        id: newId("attempt"),
        eventId,
        webhookId,
        targetUrl: "http://127.0.0.1:9/hook",
        attempt: 1,
        success: latency !== null,
        latencyMs: latency ?? 900,
        attemptedAt: at(minute),
      });
    }
  });

  afterAll(async () => {
    await api?.close();
  });

  const timeline = (query: string, token = owner.token) =>
    api.call("GET", `/api/events/timeline?${query}`, { token });

  it("counts events by status and measures latency per bucket, listing empty buckets", async () => {
    const res = await timeline(`webhookId=${webhookId}&from=${FROM}&to=${TO}&buckets=4`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      from: FROM,
      to: TO,
      bucketSeconds: 3600,
      buckets: [
        { start: FROM, total: 3, delivered: 2, failed: 1, p50: 200, p95: 290, p99: 298 },
        {
          start: at(60).toISOString(),
          total: 0,
          delivered: 0,
          failed: 0,
          p50: null,
          p95: null,
          p99: null,
        },
        {
          start: at(120).toISOString(),
          total: 1,
          delivered: 1,
          failed: 0,
          p50: 50,
          p95: 50,
          p99: 50,
        },
        {
          start: at(180).toISOString(),
          total: 0,
          delivered: 0,
          failed: 0,
          p50: null,
          p95: null,
          p99: null,
        },
      ],
    });
  });

  it.each([
    [`from=${TO}&to=${FROM}`, "from: must be before to"],
    [
      "from=2030-01-01T00:00:00Z&to=2030-06-01T00:00:00Z",
      "from: the window may cover at most 92 days",
    ],
    ["buckets=0", "buckets"],
    ["buckets=201", "buckets"],
    ["from=yesterday", "from"],
  ])("answers 400 to %s", async (query, message) => {
    const res = await timeline(query);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(message);
  });

  it("answers 403 for another owner's webhook, 404 for an unknown one, 401 without a credential", async () => {
    const stranger = await createUserWithSession(api.database.db);
    expect((await timeline(`webhookId=${webhookId}`, stranger.token)).status).toBe(403);
    expect((await timeline("webhookId=wh_missing")).status).toBe(404);
    expect((await api.call("GET", "/api/events/timeline")).status).toBe(401);
  });

  it("needs events:read", async () => {
    const { key } = await createApiKeyFor(api.database.db, owner.userId, {
      scopes: ["webhooks:read"],
    });
    expect((await timeline(`webhookId=${webhookId}`, key)).status).toBe(403);
    const { key: reader } = await createApiKeyFor(api.database.db, owner.userId, {
      scopes: ["events:read"],
    });
    expect((await timeline(`webhookId=${webhookId}`, reader)).status).toBe(200);
  });
});
