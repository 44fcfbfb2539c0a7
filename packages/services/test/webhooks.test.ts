import { findWebhookById } from "@hookflow/db";
import { CreateWebhookInput, ForbiddenError, ValidationError } from "@hookflow/domain";
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listWebhooks,
  rotateWebhookToken,
  toggleWebhookActive,
  updateWebhook,
  type WebhooksContext,
} from "../src/index.js";
import { insertTwoActors } from "./fixtures.js";
import { actorOf, createTestContext, type TestContext } from "./service-context.js";

describe("webhook verbs", () => {
  let ctx: TestContext<Pick<WebhooksContext, "config">>;
  beforeAll(async () => {
    ctx = await createTestContext({
      config: { publicBaseUrl: "http://hookflow.test", secret: "test-secret-test-secret-test-1" },
    });
  });
  afterAll(async () => {
    await ctx.close();
  });

  async function twoUsers() {
    const { alice, bob } = await insertTwoActors(ctx.db.db);
    return { a: alice, b: bob };
  }

  it("stores a webhook with sealed secrets and shows it to its owner only", async () => {
    const { a, b } = await twoUsers();
    const created = await createWebhook(ctx, a, CreateWebhookInput.parse({ name: "orders" }));
    const row = await findWebhookById(ctx.db.db, created.id);
    expect(row?.ownerId).toBe(a.userId);
    expect(row?.ingressToken.startsWith("enc:v1:")).toBe(true);
    expect(created.ingressToken).not.toBe(row?.ingressToken);
    expect((await getWebhook(ctx, a, { id: created.id })).name).toBe("orders");
    await expect(getWebhook(ctx, b, { id: created.id })).rejects.toBeInstanceOf(ForbiddenError);
    await expect(toggleWebhookActive(ctx, b, { id: created.id })).rejects.toBeInstanceOf(
      ForbiddenError,
    );
    const listed = await listWebhooks(ctx, a, { page: 1, limit: 20 });
    expect(listed.total).toBe(1);
    expect((await listWebhooks(ctx, b, { page: 1, limit: 20 })).total).toBe(0);
  });

  it("rotates, toggles, refuses a chain to itself, and deletes", async () => {
    const { a } = await twoUsers();
    const created = await createWebhook(ctx, a, CreateWebhookInput.parse({ name: "hooks" }));
    const { ingressToken } = await rotateWebhookToken(ctx, a, { id: created.id });
    expect(ingressToken).not.toBe(created.ingressToken);
    expect((await getWebhook(ctx, a, { id: created.id })).ingressToken).toBe(ingressToken);
    await expect(toggleWebhookActive(ctx, a, { id: created.id })).resolves.toEqual({
      isActive: !created.isActive,
    });
    await expect(
      updateWebhook(ctx, a, { id: created.id, patch: { chainWebhookIds: [created.id] } }),
    ).rejects.toBeInstanceOf(ValidationError);
    await deleteWebhook(ctx, a, { id: created.id });
    expect(await findWebhookById(ctx.db.db, created.id)).toBeUndefined();
  });

  it("deletes a webhook's events and their delivery attempts with it", async () => {
    const { a } = await twoUsers();
    const kept = await createWebhook(ctx, a, CreateWebhookInput.parse({ name: "kept" }));
    const gone = await createWebhook(ctx, a, CreateWebhookInput.parse({ name: "gone" }));
    const { sql } = ctx.db;
    for (const webhook of [kept, gone]) {
      const eventId = `evt_${webhook.id}`;
      await sql`insert into events (id, webhook_id, body) values (${eventId}, ${webhook.id}, '{}')`;
      await sql`insert into delivery_attempts (id, event_id, webhook_id, target_url, attempt, success)
        values (${`att_${webhook.id}`}, ${eventId}, ${webhook.id}, 'http://example.test', 1, true)`;
    }
    await deleteWebhook(ctx, a, { id: gone.id });
    const attempts = await sql`select webhook_id from delivery_attempts
      where webhook_id in (${kept.id}, ${gone.id})`;
    expect(attempts.map((row) => row.webhook_id)).toEqual([kept.id]);
    const events =
      await sql`select webhook_id from events where webhook_id in (${kept.id}, ${gone.id})`;
    expect(events.map((row) => row.webhook_id)).toEqual([kept.id]);
  });

  it("needs webhooks:write of a key", async () => {
    const { a } = await twoUsers();
    const reader = actorOf(a.userId, { kind: "apiKey", scopes: ["webhooks:read"] });
    await expect(
      createWebhook(ctx, reader, CreateWebhookInput.parse({ name: "no" })),
    ).rejects.toBeInstanceOf(ForbiddenError);
  });
});
