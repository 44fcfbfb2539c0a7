import { createApiKeyFor, createOrganizationWith, createUserWithSession } from "./fixtures.js";
import { type ApiHarness, startApi } from "./harness.js";
import {
  createNode,
  eventually,
  insertWebhookRow,
  listenTo,
  webhookInput,
} from "./nodes-fixtures.js";

type User = Awaited<ReturnType<typeof createUserWithSession>>;
type Body = Record<string, any>;

const at = (x: number, y = 0) => ({ x, y });

function webhookNode(id: string, x = 0) {
  return {
    id: `webhook-${id}`,
    type: "webhook",
    position: at(x),
    data: { label: "W", webhookId: id },
  };
}

function recordNode(type: string, nodeId: string, x = 200) {
  return { id: `${type}-${nodeId}`, type, position: at(x), data: { label: type, nodeId } };
}

describe("canvas snapshots api", () => {
  let api: ApiHarness;
  let alice: User;
  let bob: User;
  let hook: string;
  let otherHook: string;
  let bobHook: string;
  let filter: Body;
  let transform: Body;
  let unrelated: Body;
  let readKey: string;
  let noCanvasKey: string;

  beforeAll(async () => {
    api = await startApi();
    const db = api.services.db.db;
    alice = await createUserWithSession(db);
    bob = await createUserWithSession(db);
    hook = await insertWebhookRow(db, alice.userId, {
      name: "orders",
      payloadFilters: [{ field: "type", operator: "exists" }],
    });
    otherHook = await insertWebhookRow(db, alice.userId, { name: "other" });
    bobHook = await insertWebhookRow(db, bob.userId);
    filter = await createNode(api, alice.token, "filter-nodes", {
      name: "only orders",
      filters: [{ field: "type", operator: "eq", value: "order" }],
      inputNodes: [webhookInput(hook)],
    });
    transform = await createNode(api, alice.token, "transform-nodes", {
      name: "reshape",
      transformMode: "jq",
      template: "{id: .id}",
      inputNodes: [{ nodeType: "filter", nodeId: filter.id }],
    });
    unrelated = await createNode(api, alice.token, "delay-nodes", {
      name: "elsewhere",
      delaySeconds: 5,
      inputNodes: [webhookInput(otherHook)],
    });
    readKey = (await createApiKeyFor(db, alice.userId, { scopes: ["canvas:read"] })).key;
    noCanvasKey = (await createApiKeyFor(db, alice.userId, { scopes: ["events:read"] })).key;
  });
  afterAll(async () => {
    await api.close();
  });

  function canvas() {
    return {
      name: "orders flow",
      nodes: [
        webhookNode(hook),
        recordNode("filter", filter.id),
        { id: "note-1", type: "note", position: at(5, 5), data: { text: "remember" } },
      ],
      edges: [
        { id: "e1", source: `webhook-${hook}`, target: `filter-${filter.id}`, animated: true },
      ],
    };
  }

  async function save(body: Body = canvas(), token = alice.token, headers = {}) {
    const res = await api.call("POST", "/api/canvas-snapshots", { token, body, headers });
    if (res.status !== 201) throw new Error(`save failed: ${JSON.stringify(res.body)}`);
    return res.body;
  }

  describe("happy paths", () => {
    it("stores the layout as sent and freezes the graph it shows", async () => {
      const res = await api.call("POST", "/api/canvas-snapshots", {
        token: alice.token,
        body: canvas(),
      });
      expect(res.status).toBe(201);
      const snap = res.body;
      expect(snap.id).toMatch(/^cvs_/);
      expect(snap._id).toBe(snap.id);
      expect(snap).toMatchObject({
        name: "orders flow",
        ownerId: alice.userId,
        organizationId: null,
        nodes: canvas().nodes,
        edges: canvas().edges,
      });
      expect(snap.graph.version).toBe(1);
      expect(snap.graph.webhooks).toEqual([
        {
          id: hook,
          name: "orders",
          targetUrl: "http://127.0.0.1:9/hook",
          isActive: true,
          payloadFilters: [{ field: "type", operator: "exists" }],
          ownerId: alice.userId,
          organizationId: null,
        },
      ]);
      const frozen = snap.graph.nodes.map((n: Body) => n.id).sort();
      // The transform is downstream of the webhook though not on the canvas; the delay is not.
      expect(frozen).toEqual([filter.id, transform.id].sort());
      const frozenFilter = snap.graph.nodes.find((n: Body) => n.id === filter.id);
      expect(frozenFilter).toMatchObject({
        family: "filter",
        name: "only orders",
        config: { filterMode: "and", filters: filter.filters },
        inputNodes: [webhookInput(hook)],
      });
      expect(JSON.stringify(snap)).not.toContain("whsec_");
      expect(snap.graph.nodes.map((n: Body) => n.id)).not.toContain(unrelated.id);
    });

    it("rejects a snapshot without a name, naming the field, as every family does", async () => {
      const { name: _, ...rest } = canvas();
      const res = await api.call("POST", "/api/canvas-snapshots", {
        token: alice.token,
        body: rest,
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ statusCode: 400, error: "Bad Request" });
      expect(res.body.message).toMatch(/^name: /);
    });

    it("keeps the frozen graph when the live nodes change, until nodes are saved again", async () => {
      const node = await createNode(api, alice.token, "filter-nodes", {
        name: "v1",
        filters: [{ field: "a", operator: "exists" }],
        inputNodes: [webhookInput(otherHook)],
      });
      const snap = await save({
        name: "v1 flow",
        nodes: [webhookNode(otherHook), recordNode("filter-node", node.id)],
        edges: [],
      });
      await api.call("PATCH", `/api/filter-nodes/${node.id}`, {
        token: alice.token,
        body: { name: "v2", filterMode: "or" },
      });
      const stored = await api.call("GET", `/api/canvas-snapshots/${snap.id}`, {
        token: alice.token,
      });
      const frozen = () => stored.body.graph.nodes.find((n: Body) => n.id === node.id);
      expect(frozen()).toMatchObject({ name: "v1", config: { filterMode: "and" } });

      const renamed = await api.call("PATCH", `/api/canvas-snapshots/${snap.id}`, {
        token: alice.token,
        body: { name: "renamed" },
      });
      expect(renamed.status).toBe(200);
      expect(renamed.body.name).toBe("renamed");
      expect(renamed.body.graph).toEqual(snap.graph);

      const refrozen = await api.call("PATCH", `/api/canvas-snapshots/${snap.id}`, {
        token: alice.token,
        body: { nodes: snap.nodes },
      });
      expect(refrozen.status).toBe(200);
      expect(refrozen.body.name).toBe("renamed");
      expect(refrozen.body.edges).toEqual([]);
      const again = refrozen.body.graph.nodes.find((n: Body) => n.id === node.id);
      expect(again).toMatchObject({ name: "v2", config: { filterMode: "or" } });
    });

    it("lists the acting context's snapshots with X-Total-Count and paging", async () => {
      const db = api.services.db.db;
      const dave = await createUserWithSession(db);
      const org = await createOrganizationWith(db, [{ userId: dave.userId, role: "owner" }]);
      const empty = { nodes: [], edges: [] };
      const ids = [];
      for (const name of ["a", "b", "c"]) ids.push((await save({ name, ...empty }, dave.token)).id);
      const inOrg = await save({ name: "org", ...empty }, dave.token, { "x-organization-id": org });
      const page = await api.call("GET", "/api/canvas-snapshots?limit=2&page=1", {
        token: dave.token,
      });
      expect(page.status).toBe(200);
      expect(page.headers.get("x-total-count")).toBe("3");
      expect(page.body.map((s: Body) => s.id)).toEqual([ids[2], ids[1]]);
      const orgPage = await api.call("GET", "/api/canvas-snapshots", {
        token: dave.token,
        headers: { "x-organization-id": org },
      });
      expect(orgPage.body.map((s: Body) => s.id)).toEqual([inOrg.id]);
    });

    it("deletes a snapshot (204) and leaves the live nodes alone", async () => {
      const snap = await save();
      const del = await api.call("DELETE", `/api/canvas-snapshots/${snap.id}`, {
        token: alice.token,
      });
      expect(del.status).toBe(204);
      const gone = await api.call("GET", `/api/canvas-snapshots/${snap.id}`, {
        token: alice.token,
      });
      expect(gone.status).toBe(404);
      const live = await api.call("GET", `/api/filter-nodes/${filter.id}`, { token: alice.token });
      expect(live.status).toBe(200);
    });

    // Snapshots are never part of a live graph and workers ignore graph changes naming them, so
    // their writes publish nothing. The node write after them publishes on the same connection,
    // so once its message arrives any earlier snapshot message would have arrived too.
    it("publishes no graph change when a snapshot is saved, updated or deleted", async () => {
      const listener = await listenTo(
        api.services.config.redisUrl,
        api.services.keys.graphChangedChannel,
      );
      try {
        const snap = await save();
        const patched = await api.call("PATCH", `/api/canvas-snapshots/${snap.id}`, {
          token: alice.token,
          body: canvas(),
        });
        expect(patched.status).toBe(200);
        const deleted = await api.call("DELETE", `/api/canvas-snapshots/${snap.id}`, {
          token: alice.token,
        });
        expect(deleted.status).toBe(204);
        const marker = await createNode(api, alice.token, "delay-nodes", {
          name: "marker",
          delaySeconds: 1,
        });
        await eventually(() => expect(listener.messages).toEqual([{ nodeId: marker.id }]));
      } finally {
        listener.close();
      }
    });
  });

  describe("errors", () => {
    it.each<[string, () => Body, () => string]>([
      ["nodes missing", () => ({ edges: [] }), () => "nodes"],
      ["edges missing", () => ({ nodes: [] }), () => "edges"],
      [
        "a node without a position",
        () => ({ nodes: [{ id: "a", type: "note", data: {} }], edges: [] }),
        () => "nodes.0.position",
      ],
      [
        "a position that is not a number",
        () => ({ nodes: [{ id: "a", type: "note", position: { x: "1", y: 0 } }], edges: [] }),
        () => "nodes.0.position.x",
      ],
      [
        "a webhook node without webhookId",
        () => ({ nodes: [{ id: "w", type: "webhook", position: at(0), data: {} }], edges: [] }),
        () => "nodes.0.data.webhookId",
      ],
      [
        "an unknown webhook",
        () => ({ nodes: [webhookNode("wh_01NOPE")], edges: [] }),
        () => "nodes.0.data.webhookId: Unknown webhook wh_01NOPE",
      ],
      [
        "another owner's webhook",
        () => ({ nodes: [webhookNode(bobHook)], edges: [] }),
        () => `nodes.0.data.webhookId: Unknown webhook ${bobHook}`,
      ],
      [
        "a filter node without nodeId",
        () => ({ nodes: [{ id: "f", type: "filter", position: at(0), data: {} }], edges: [] }),
        () => "nodes.0.data.nodeId",
      ],
      [
        "a node whose type does not match the record",
        () => ({ nodes: [recordNode("transform", filter.id)], edges: [] }),
        () => `nodes.0.data.nodeId: Unknown node ${filter.id}`,
      ],
      [
        "a duplicate canvas node id",
        () => ({ nodes: [webhookNode(hook), webhookNode(hook)], edges: [] }),
        () => "nodes.1.id",
      ],
      [
        "an edge to a node not on the canvas",
        () => ({ nodes: [webhookNode(hook)], edges: [{ source: `webhook-${hook}`, target: "x" }] }),
        () => "edges.0.target: Unknown canvas node x",
      ],
      [
        "an edge without a source",
        () => ({ nodes: [webhookNode(hook)], edges: [{ target: `webhook-${hook}` }] }),
        () => "edges.0.source",
      ],
    ])("rejects %s with a 400 naming it", async (_, body, message) => {
      const res = await api.call("POST", "/api/canvas-snapshots", {
        token: alice.token,
        body: { name: "bad", ...body() },
      });
      expect(res.status).toBe(400);
      expect(res.body.message).toContain(message());
    });

    it("rejects a PATCH whose nodes name an unknown record and keeps the snapshot", async () => {
      const snap = await save();
      const res = await api.call("PATCH", `/api/canvas-snapshots/${snap.id}`, {
        token: alice.token,
        body: { nodes: [webhookNode(bobHook)], edges: [] },
      });
      expect(res.status).toBe(400);
      const still = await api.call("GET", `/api/canvas-snapshots/${snap.id}`, {
        token: alice.token,
      });
      expect(still.body).toEqual(snap);
    });

    it("rejects a PATCH of nodes that would leave an edge dangling", async () => {
      const snap = await save();
      const res = await api.call("PATCH", `/api/canvas-snapshots/${snap.id}`, {
        token: alice.token,
        body: { nodes: [webhookNode(hook)] },
      });
      expect(res.status).toBe(400);
      expect(res.body.message).toContain("edges.0.target");
    });
  });

  it("documents the five snapshot operations in the OpenAPI document", async () => {
    const { body } = await api.call("GET", "/api/openapi.json");
    expect(Object.keys(body.paths["/api/canvas-snapshots"]).sort()).toEqual(["get", "post"]);
    expect(Object.keys(body.paths["/api/canvas-snapshots/{id}"]).sort()).toEqual([
      "delete",
      "get",
      "patch",
    ]);
    expect(body.paths["/api/canvas-snapshots"].post.tags).toEqual(["Canvas snapshots"]);
    expect(body.components.schemas.CanvasSnapshot.properties.graph).toBeDefined();
  });

  describe("security", () => {
    it("answers 403 to another owner and 404 for an unknown id on get, PATCH and DELETE", async () => {
      const snap = await save();
      for (const method of ["GET", "PATCH", "DELETE"]) {
        const body = method === "PATCH" ? { name: "x" } : undefined;
        const theirs = await api.call(method, `/api/canvas-snapshots/${snap.id}`, {
          token: bob.token,
          body,
        });
        expect([method, theirs.status]).toEqual([method, 403]);
        const unknown = await api.call(method, "/api/canvas-snapshots/cvs_01NOPE", {
          token: alice.token,
          body,
        });
        expect([method, unknown.status]).toEqual([method, 404]);
      }
    });

    it.each([
      { who: "no credential", method: "GET", status: 401 },
      { who: "no credential", method: "POST", status: 401 },
      { who: "a key without canvas scopes", method: "GET", status: 403 },
      { who: "a key without canvas scopes", method: "POST", status: 403 },
      { who: "a canvas:read key", method: "POST", status: 403 },
      { who: "a canvas:read key", method: "GET", status: 200 },
    ])("answers $status to $who on $method", async ({ who, method, status }) => {
      const tokens: Record<string, string | undefined> = {
        "no credential": undefined,
        "a key without canvas scopes": noCanvasKey,
        "a canvas:read key": readKey,
      };
      const res = await api.call(method, "/api/canvas-snapshots", {
        token: tokens[who],
        body: method === "POST" ? { name: "empty", nodes: [], edges: [] } : undefined,
      });
      expect(res.status).toBe(status);
    });
  });
});
