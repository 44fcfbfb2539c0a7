import { canvasSnapshots } from "@hookflow/db";
import { newId } from "@hookflow/domain";
import { createOrganizationWith, createUserWithSession } from "./fixtures.js";
import { type ApiHarness, startApi } from "./harness.js";
import {
  createNode,
  insertEventRow,
  insertNodeRow,
  insertWebhookRow,
  webhookInput,
} from "./nodes-fixtures.js";

type User = Awaited<ReturnType<typeof createUserWithSession>>;
type Body = Record<string, any>;

const PRIVATE_URL = "https://alice.example/private-target";
const route = (outputWebhookId: string) => ({
  field: "type",
  operator: "exists" as const,
  outputWebhookId,
});

function webhookNode(id: string) {
  return {
    id: `webhook-${id}`,
    type: "webhook",
    position: { x: 0, y: 0 },
    data: { label: "W", webhookId: id },
  };
}

/** A snapshot shows each viewer only what that viewer may read now. */
describe("canvas snapshot redaction", () => {
  let api: ApiHarness;
  let owner: User;
  let alice: User;
  let carol: User;
  let org: string;
  let orgHook: string;
  let aliceHook: string;
  const asOrg = () => ({ "x-organization-id": org });

  beforeAll(async () => {
    api = await startApi();
    const db = api.services.db.db;
    owner = await createUserWithSession(db);
    alice = await createUserWithSession(db);
    carol = await createUserWithSession(db);
    org = await createOrganizationWith(db, [
      { userId: owner.userId, role: "owner" },
      { userId: alice.userId, role: "member" },
      { userId: carol.userId, role: "member" },
    ]);
    orgHook = await insertWebhookRow(db, alice.userId, { organizationId: org, name: "org hook" });
    aliceHook = await insertWebhookRow(db, alice.userId, {
      name: "alice's own",
      targetUrl: PRIVATE_URL,
    });
  });
  afterAll(async () => {
    await api.close();
  });

  it("freezes another owner's webhook as a placeholder, without its target URL", async () => {
    // Stored before graphs were kept to one owner: an org router forwarding to Alice's webhook.
    const router = await insertNodeRow(
      api.services.db.db,
      { ownerId: alice.userId, organizationId: org },
      "router",
      { routes: [route(aliceHook)] },
      [webhookInput(orgHook)],
    );
    const res = await api.call("POST", "/api/canvas-snapshots", {
      token: carol.token,
      headers: asOrg(),
      body: { name: "org flow", nodes: [webhookNode(orgHook)], edges: [] },
    });
    expect(res.status).toBe(201);
    expect(res.body.graph.nodes.map((n: Body) => n.id)).toEqual([router]);
    expect(res.body.graph.webhooks).toEqual([
      expect.objectContaining({ id: orgHook, name: "org hook", organizationId: org }),
      { id: aliceHook, hidden: true },
    ]);
    expect(JSON.stringify(res.body)).not.toContain(PRIVATE_URL);
    // Stored that way too: no later reader finds it in the row.
    const [row] = await api.database.sql`select graph::text as graph from canvas_snapshots
      where id = ${res.body.id}`;
    expect(row?.graph).not.toContain(PRIVATE_URL);
  });

  describe("a snapshot saved before redaction, holding a member's personal records", () => {
    let snapshotId: string;
    let personalRouter: string;
    beforeAll(async () => {
      personalRouter = newId("event").replace("evt_", "rtr_");
      snapshotId = newId("canvasSnapshot");
      const frozenHook = (id: string, name: string, targetUrl: string) => ({
        id,
        name,
        targetUrl,
        isActive: true,
        payloadFilters: [],
      });
      await api.services.db.db.insert(canvasSnapshots).values({
        id: snapshotId,
        ownerId: alice.userId,
        organizationId: org,
        name: "old org flow",
        nodes: [
          webhookNode(orgHook),
          {
            id: "router-1",
            type: "router",
            position: { x: 1, y: 1 },
            data: { label: "to my own webhook", nodeId: personalRouter, targetUrl: PRIVATE_URL },
          },
        ],
        edges: [],
        graph: {
          version: 1,
          frozenAt: "2030-01-01T00:00:00.000Z",
          webhooks: [
            frozenHook(orgHook, "org hook", "https://org.example/in"),
            frozenHook(aliceHook, "alice's own", PRIVATE_URL),
          ],
          nodes: [
            {
              id: personalRouter,
              family: "router",
              name: "my secret router",
              ownerId: alice.userId,
              organizationId: null,
              inputNodes: [webhookInput(orgHook)],
              config: { routes: [route(aliceHook)] },
              createdAt: "2030-01-01T00:00:00.000Z",
              updatedAt: "2030-01-01T00:00:00.000Z",
            },
          ],
        },
      });
    });

    it("shows another member placeholders for what they may not read, in get and list", async () => {
      const get = await api.call("GET", `/api/canvas-snapshots/${snapshotId}`, {
        token: carol.token,
      });
      expect(get.status).toBe(200);
      expect(get.body.graph.nodes).toEqual([
        { id: personalRouter, family: "router", hidden: true },
      ]);
      expect(get.body.graph.webhooks).toEqual([
        expect.objectContaining({ id: orgHook, targetUrl: "https://org.example/in" }),
        { id: aliceHook, hidden: true },
      ]);
      expect(get.body.nodes[1]).toEqual({
        id: "router-1",
        type: "router",
        position: { x: 1, y: 1 },
        data: { nodeId: personalRouter },
      });
      expect(JSON.stringify(get.body)).not.toContain(PRIVATE_URL);
      expect(JSON.stringify(get.body)).not.toContain("my secret router");
      const list = await api.call("GET", "/api/canvas-snapshots", {
        token: carol.token,
        headers: asOrg(),
      });
      const listed = list.body.find((s: Body) => s.id === snapshotId);
      expect(listed.graph).toEqual(get.body.graph);
      expect(JSON.stringify(list.body)).not.toContain(PRIVATE_URL);
    });

    it("still shows their owner everything", async () => {
      const get = await api.call("GET", `/api/canvas-snapshots/${snapshotId}`, {
        token: alice.token,
      });
      expect(get.body.graph.nodes[0]).toMatchObject({ name: "my secret router" });
      expect(get.body.graph.webhooks[1]).toMatchObject({ targetUrl: PRIVATE_URL });
    });

    it("refuses time travel through nodes the caller may not read (403)", async () => {
      const eventId = await insertEventRow(api.services.db.db, orgHook, { type: "order" });
      const res = await api.call("POST", `/api/events/${eventId}/time-travel`, {
        token: carol.token,
        body: { snapshotId },
      });
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ statusCode: 403, error: "Forbidden" });
      expect(res.body.message).toContain(personalRouter);
      const mine = await api.call("POST", `/api/events/${eventId}/time-travel`, {
        token: alice.token,
        body: { snapshotId },
      });
      expect(mine.status).toBe(200);
    });
  });

  it("hides an organization's records from a member's own snapshot once they leave it", async () => {
    const db = api.services.db.db;
    const leaver = await createUserWithSession(db);
    await api.call("POST", `/api/organizations/${org}/members`, {
      token: owner.token,
      body: { email: leaver.email, role: "member" },
    });
    const filter = await createNode(
      api,
      owner.token,
      "filter-nodes",
      {
        name: "org filter",
        inputNodes: [webhookInput(orgHook)],
        filters: [{ field: "type", operator: "exists" }],
      },
      asOrg(),
    );
    // Saved in the leaver's personal space while a member: the org's graph is frozen into it.
    const saved = await api.call("POST", "/api/canvas-snapshots", {
      token: leaver.token,
      body: { name: "mine", nodes: [webhookNode(orgHook)], edges: [] },
    });
    expect(saved.status).toBe(201);
    expect(saved.body.graph.nodes.map((n: Body) => n.id)).toContain(filter.id);

    const removed = await api.call("DELETE", `/api/organizations/${org}/members/${leaver.userId}`, {
      token: owner.token,
    });
    expect(removed.status).toBe(204);
    const after = await api.call("GET", `/api/canvas-snapshots/${saved.body.id}`, {
      token: leaver.token,
    });
    expect(after.status).toBe(200);
    expect(after.body.graph.webhooks).toEqual(
      expect.arrayContaining([{ id: orgHook, hidden: true }]),
    );
    expect(after.body.graph.webhooks.every((w: Body) => w.hidden === true)).toBe(true);
    expect(after.body.graph.nodes).toEqual(
      expect.arrayContaining([{ id: filter.id, family: "filter", hidden: true }]),
    );
    expect(after.body.graph.nodes.every((n: Body) => n.hidden === true)).toBe(true);
    expect(after.body.nodes[0].data).toEqual({ webhookId: orgHook });
  });
});
