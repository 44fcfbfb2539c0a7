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
type Body = Record<string, unknown>;

interface FamilyCase {
  path: string;
  prefix: string;
  /** The smallest valid create body (besides name); `wh` is a webhook of the caller. */
  minimal: (wh: string) => Body;
  /** What the create must have filled in. */
  defaults: Body;
  /** Invalid create bodies and the field the 400 must name. */
  invalid: Array<[string, (wh: string) => Body, string]>;
  /** A config change for the PATCH test, with what the response then shows. */
  patch: Body;
}

const FAMILIES: FamilyCase[] = [
  {
    path: "routers",
    prefix: "rtr_",
    minimal: (wh) => ({
      routes: [{ field: "type", operator: "eq", value: "a", outputWebhookId: wh }],
    }),
    defaults: {},
    invalid: [
      ["routes missing", () => ({}), "routes"],
      ["routes empty", () => ({ routes: [] }), "routes"],
      [
        "an unknown operator",
        (wh) => ({ routes: [{ field: "a", operator: "like", value: "x", outputWebhookId: wh }] }),
        "routes.0.operator",
      ],
      [
        "a route without outputWebhookId",
        () => ({ routes: [{ field: "a", operator: "eq", value: "x" }] }),
        "routes.0.outputWebhookId",
      ],
    ],
    patch: { name: "renamed" },
  },
  {
    path: "filter-nodes",
    prefix: "fltn_",
    minimal: () => ({ filters: [{ field: "type", operator: "exists" }] }),
    defaults: { filterMode: "and" },
    invalid: [
      ["filters missing", () => ({}), "filters"],
      ["an unknown filterMode", () => ({ filterMode: "xor", filters: [] }), "filterMode"],
      [
        "eq without a value",
        () => ({ filters: [{ field: "a", operator: "eq" }] }),
        "filters.0.value",
      ],
    ],
    patch: { filterMode: "or" },
  },
  {
    path: "transform-nodes",
    prefix: "trn_",
    minimal: () => ({ transformMode: "jq", template: ".order" }),
    defaults: {},
    invalid: [
      [
        "an unknown transformMode",
        () => ({ transformMode: "python", template: "x" }),
        "transformMode",
      ],
      ["template missing", () => ({ transformMode: "jq" }), "template"],
      ["an empty template", () => ({ transformMode: "jq", template: "" }), "template"],
    ],
    patch: { template: ".items" },
  },
  {
    path: "schema-validators",
    prefix: "sv_",
    minimal: () => ({}),
    defaults: { strictMode: false, fields: [] },
    invalid: [
      ["an unknown field type", () => ({ fields: [{ path: "a", type: "date" }] }), "fields.0.type"],
      [
        "an invalid pattern",
        () => ({ fields: [{ path: "a", type: "string", constraints: { pattern: "(" } }] }),
        "fields.0.constraints.pattern",
      ],
      ["a non-boolean strictMode", () => ({ strictMode: "yes" }), "strictMode"],
    ],
    patch: { strictMode: true },
  },
  {
    path: "delay-nodes",
    prefix: "dly_",
    minimal: () => ({ delaySeconds: 30 }),
    defaults: {},
    invalid: [
      ["delaySeconds missing", () => ({}), "delaySeconds"],
      ["delaySeconds zero", () => ({ delaySeconds: 0 }), "delaySeconds"],
      ["delaySeconds fractional", () => ({ delaySeconds: 1.5 }), "delaySeconds"],
    ],
    patch: { delaySeconds: 90 },
  },
  {
    path: "merge-nodes",
    prefix: "mrg_",
    minimal: () => ({}),
    defaults: { mode: "wait_all", expectedBranchCount: 2 },
    invalid: [
      ["an unknown mode", () => ({ mode: "any" }), "mode"],
      ["expectedBranchCount zero", () => ({ expectedBranchCount: 0 }), "expectedBranchCount"],
    ],
    patch: { mode: "first" },
  },
  {
    path: "approval-nodes",
    prefix: "apr_",
    minimal: () => ({}),
    defaults: { timeoutMinutes: 60, autoActionOnTimeout: "reject", notifyEmails: [] },
    invalid: [
      ["an invalid email", () => ({ notifyEmails: ["not-an-email"] }), "notifyEmails.0"],
      [
        "an unknown autoActionOnTimeout",
        () => ({ autoActionOnTimeout: "ignore" }),
        "autoActionOnTimeout",
      ],
      ["timeoutMinutes zero", () => ({ timeoutMinutes: 0 }), "timeoutMinutes"],
    ],
    patch: { autoActionOnTimeout: "approve" },
  },
  {
    path: "rate-limiter-nodes",
    prefix: "rln_",
    minimal: () => ({ maxEvents: 10, windowSeconds: 60 }),
    defaults: {
      overflowAction: "drop",
      maxQueueDelaySeconds: 300,
      outputWebhookIds: [],
      outputTransformIds: [],
      isActive: true,
    },
    invalid: [
      ["maxEvents missing", () => ({ windowSeconds: 60 }), "maxEvents"],
      [
        "an unknown overflowAction",
        () => ({ maxEvents: 1, windowSeconds: 1, overflowAction: "queue-it" }),
        "overflowAction",
      ],
      [
        "an unknown output webhook",
        () => ({ maxEvents: 1, windowSeconds: 1, outputWebhookIds: ["wh_unknown"] }),
        "outputWebhookIds.0",
      ],
    ],
    patch: { overflowAction: "queue", isActive: false },
  },
];

describe("node family api", () => {
  let api: ApiHarness;
  let alice: User;
  let bob: User;
  let carol: User;
  let orgId: string;
  let aliceHook: string;
  /** Where routers of the family table forward to (never their own input, which would loop). */
  let outHook: string;
  let bobHook: string;
  let orgHook: string;
  /** Where the organization's routers forward to: a webhook of the organization too. */
  let orgOutHook: string;
  let readKey: string;
  let noCanvasKey: string;

  beforeAll(async () => {
    api = await startApi();
    const db = api.services.db.db;
    alice = await createUserWithSession(db);
    bob = await createUserWithSession(db);
    carol = await createUserWithSession(db);
    orgId = await createOrganizationWith(db, [
      { userId: alice.userId, role: "owner" },
      { userId: carol.userId, role: "member" },
    ]);
    aliceHook = await insertWebhookRow(db, alice.userId);
    outHook = await insertWebhookRow(db, alice.userId);
    bobHook = await insertWebhookRow(db, bob.userId);
    orgHook = await insertWebhookRow(db, alice.userId, { organizationId: orgId });
    orgOutHook = await insertWebhookRow(db, alice.userId, { organizationId: orgId });
    readKey = (await createApiKeyFor(db, alice.userId, { scopes: ["canvas:read"] })).key;
    noCanvasKey = (
      await createApiKeyFor(db, alice.userId, { scopes: ["webhooks:read", "webhooks:write"] })
    ).key;
  });
  afterAll(async () => {
    await api.close();
  });

  describe.each(FAMILIES)("/api/$path", (family) => {
    const create = (body: Body, token = alice.token, headers: Record<string, string> = {}) =>
      createNode(api, token, family.path, body, headers);
    const minimal = () => ({ name: `a ${family.path}`, ...family.minimal(outHook) });

    it("creates a node with the documented defaults", async () => {
      const res = await api.call("POST", `/api/${family.path}`, {
        token: alice.token,
        body: { ...minimal(), inputNodes: [webhookInput(aliceHook)] },
      });
      expect(res.status).toBe(201);
      expect(res.body.id.startsWith(family.prefix)).toBe(true);
      expect(res.body._id).toBe(res.body.id);
      expect(res.body).toMatchObject({
        ...family.minimal(outHook),
        ...family.defaults,
        name: `a ${family.path}`,
        inputNodes: [{ nodeType: "webhook", nodeId: aliceHook }],
        ownerId: alice.userId,
        organizationId: null,
      });
      expect(Date.parse(res.body.createdAt)).not.toBeNaN();
    });

    it("defaults inputNodes to an empty list", async () => {
      const node = await create(minimal());
      expect(node.inputNodes).toEqual([]);
    });

    it("rejects a create without a name", async () => {
      const res = await api.call("POST", `/api/${family.path}`, {
        token: alice.token,
        body: family.minimal(outHook),
      });
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/^name: /);
    });

    it.each(family.invalid)("rejects %s with a 400 naming the field", async (_, body, field) => {
      const res = await api.call("POST", `/api/${family.path}`, {
        token: alice.token,
        body: { name: "bad", ...body(outHook) },
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ statusCode: 400, error: "Bad Request" });
      expect(res.body.message).toContain(`${field}: `);
    });

    it("rejects a body that is not a JSON object", async () => {
      const res = await api.call("POST", `/api/${family.path}`, {
        token: alice.token,
        rawBody: "[1, 2]",
      });
      expect(res.status).toBe(400);
    });

    it.each([
      ["an unknown webhook", () => webhookInput("wh_01NOPE"), () => "webhook wh_01NOPE"],
      ["another owner's webhook", () => webhookInput(bobHook), () => `webhook ${bobHook}`],
      [
        "an unknown node",
        () => ({ nodeType: "filter", nodeId: "fltn_01NOPE" }),
        () => "filter fltn_01NOPE",
      ],
    ])("rejects an input naming %s with a 400 naming it", async (_, input, named) => {
      const res = await api.call("POST", `/api/${family.path}`, {
        token: alice.token,
        body: { ...minimal(), inputNodes: [webhookInput(aliceHook), input()] },
      });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(`inputNodes.1.nodeId: Unknown ${named()}`);
    });

    it("rejects an unknown nodeType in inputNodes", async () => {
      const res = await api.call("POST", `/api/${family.path}`, {
        token: alice.token,
        body: { ...minimal(), inputNodes: [{ nodeType: "spaceship", nodeId: aliceHook }] },
      });
      expect(res.status).toBe(400);
      expect(res.body.message).toContain("inputNodes.0.nodeType");
    });

    it("gets a node, 404 for an unknown id and 403 for another owner's", async () => {
      const node = await create(minimal());
      const mine = await api.call("GET", `/api/${family.path}/${node.id}`, { token: alice.token });
      expect(mine.status).toBe(200);
      expect(mine.body).toEqual(node);
      const theirs = await api.call("GET", `/api/${family.path}/${node.id}`, { token: bob.token });
      expect(theirs.status).toBe(403);
      const unknown = await api.call("GET", `/api/${family.path}/${family.prefix}01NOPE`, {
        token: alice.token,
      });
      expect(unknown.status).toBe(404);
    });

    it("answers 404 for a node of another family under this path", async () => {
      const other = FAMILIES.find((f) => f.path !== family.path) as FamilyCase;
      const node = await createNode(api, alice.token, other.path, {
        name: "other",
        ...other.minimal(outHook),
      });
      const res = await api.call("GET", `/api/${family.path}/${node.id}`, { token: alice.token });
      expect(res.status).toBe(404);
    });

    it("lists only the acting context's nodes, with X-Total-Count and paging", async () => {
      const db = api.services.db.db;
      const dave = await createUserWithSession(db);
      const erin = await createUserWithSession(db);
      const org = await createOrganizationWith(db, [{ userId: dave.userId, role: "owner" }]);
      const hook = await insertWebhookRow(db, dave.userId);
      const body = (name: string) => ({ name, ...family.minimal(hook) });
      const ids: string[] = [];
      for (const name of ["one", "two", "three"]) {
        ids.push((await createNode(api, dave.token, family.path, body(name))).id);
      }
      const orgHook = await insertWebhookRow(db, dave.userId, { organizationId: org });
      const orgNode = await createNode(
        api,
        dave.token,
        family.path,
        { name: "org", ...family.minimal(orgHook) },
        { "x-organization-id": org },
      );
      const erinHook = await insertWebhookRow(db, erin.userId);
      await createNode(api, erin.token, family.path, { name: "x", ...family.minimal(erinHook) });

      const page1 = await api.call("GET", `/api/${family.path}?limit=2`, { token: dave.token });
      expect(page1.status).toBe(200);
      expect(page1.headers.get("x-total-count")).toBe("3");
      expect(page1.body.map((n: Body) => n.id)).toEqual([ids[2], ids[1]]);
      const page2 = await api.call("GET", `/api/${family.path}?limit=2&page=2`, {
        token: dave.token,
      });
      expect(page2.body.map((n: Body) => n.id)).toEqual([ids[0]]);
      const inOrg = await api.call("GET", `/api/${family.path}`, {
        token: dave.token,
        headers: { "x-organization-id": org },
      });
      expect(inOrg.body.map((n: Body) => n.id)).toEqual([orgNode.id]);
      expect(inOrg.headers.get("x-total-count")).toBe("1");
      const bad = await api.call("GET", `/api/${family.path}?limit=101`, { token: dave.token });
      expect(bad.status).toBe(400);
    });

    it("PATCH changes only the fields given", async () => {
      const node = await create({ ...minimal(), inputNodes: [webhookInput(aliceHook)] });
      const res = await api.call("PATCH", `/api/${family.path}/${node.id}`, {
        token: alice.token,
        body: family.patch,
      });
      expect(res.status).toBe(200);
      const { updatedAt: _before, ...rest } = node;
      expect(res.body).toMatchObject({ ...rest, ...family.patch });
      const again = await api.call("GET", `/api/${family.path}/${node.id}`, { token: alice.token });
      expect(again.body).toEqual(res.body);
    });

    it("PATCH validates the merged record and its new references", async () => {
      const node = await create(minimal());
      const [, invalid, field] = family.invalid[
        family.invalid.length - 1
      ] as FamilyCase["invalid"][0];
      const badConfig = await api.call("PATCH", `/api/${family.path}/${node.id}`, {
        token: alice.token,
        body: invalid(outHook),
      });
      expect(badConfig.status).toBe(400);
      expect(badConfig.body.message).toContain(`${field}: `);
      const badRef = await api.call("PATCH", `/api/${family.path}/${node.id}`, {
        token: alice.token,
        body: { inputNodes: [webhookInput(bobHook)] },
      });
      expect(badRef.status).toBe(400);
      expect(badRef.body.message).toBe(`inputNodes.0.nodeId: Unknown webhook ${bobHook}`);
      const self = await api.call("PATCH", `/api/${family.path}/${node.id}`, {
        token: alice.token,
        body: { inputNodes: [{ nodeType: family.path, nodeId: node.id }] },
      });
      expect(self.status).toBe(400);
      expect(self.body.message).toContain(node.id);
      const unchanged = await api.call("GET", `/api/${family.path}/${node.id}`, {
        token: alice.token,
      });
      expect(unchanged.body).toEqual(node);
    });

    it("PATCH and DELETE answer 403 for another owner's node and 404 for an unknown id", async () => {
      const node = await create(minimal());
      for (const method of ["PATCH", "DELETE"]) {
        const theirs = await api.call(method, `/api/${family.path}/${node.id}`, {
          token: bob.token,
          body: method === "PATCH" ? { name: "mine now" } : undefined,
        });
        expect([method, theirs.status]).toEqual([method, 403]);
        const unknown = await api.call(method, `/api/${family.path}/${family.prefix}01NOPE`, {
          token: alice.token,
          body: method === "PATCH" ? { name: "x" } : undefined,
        });
        expect([method, unknown.status]).toEqual([method, 404]);
      }
      const still = await api.call("GET", `/api/${family.path}/${node.id}`, { token: alice.token });
      expect(still.body.name).toBe(node.name);
    });

    it("rejects an input that closes a cycle, naming it", async () => {
      const node = await create({ ...minimal(), inputNodes: [webhookInput(aliceHook)] });
      const downstream = await createNode(api, alice.token, "filter-nodes", {
        name: "after",
        filters: [{ field: "a", operator: "exists" }],
        inputNodes: [{ nodeType: family.path, nodeId: node.id }],
      });
      const res = await api.call("PATCH", `/api/${family.path}/${node.id}`, {
        token: alice.token,
        body: { inputNodes: [{ nodeType: "filter", nodeId: downstream.id }] },
      });
      expect(res.status).toBe(400);
      expect(res.body.message).toContain("cycle");
      expect(res.body.message).toContain(node.id);
      expect(res.body.message).toContain(downstream.id);
    });

    it("deletes a node (204) and removes it from the inputs of the nodes it fed", async () => {
      const node = await create({ ...minimal(), inputNodes: [webhookInput(aliceHook)] });
      const fed = await createNode(api, alice.token, "delay-nodes", {
        name: "fed",
        delaySeconds: 5,
        inputNodes: [webhookInput(aliceHook), { nodeType: family.path, nodeId: node.id }],
      });
      const res = await api.call("DELETE", `/api/${family.path}/${node.id}`, {
        token: alice.token,
      });
      expect(res.status).toBe(204);
      const gone = await api.call("GET", `/api/${family.path}/${node.id}`, { token: alice.token });
      expect(gone.status).toBe(404);
      const after = await api.call("GET", `/api/delay-nodes/${fed.id}`, { token: alice.token });
      expect(after.body.inputNodes).toEqual([webhookInput(aliceHook)]);
      const twice = await api.call("DELETE", `/api/${family.path}/${node.id}`, {
        token: alice.token,
      });
      expect(twice.status).toBe(404);
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
      const res = await api.call(method, `/api/${family.path}`, {
        token: tokens[who],
        body: method === "POST" ? minimal() : undefined,
      });
      expect(res.status).toBe(status);
    });

    it("refuses PATCH and DELETE to a canvas:read key and leaves the node alone", async () => {
      const node = await create(minimal());
      const patch = await api.call("PATCH", `/api/${family.path}/${node.id}`, {
        token: readKey,
        body: { name: "nope" },
      });
      expect(patch.status).toBe(403);
      const del = await api.call("DELETE", `/api/${family.path}/${node.id}`, { token: readKey });
      expect(del.status).toBe(403);
      const get = await api.call("GET", `/api/${family.path}/${node.id}`, { token: readKey });
      expect(get.body).toEqual(node);
    });

    it("shares an organization's node with its members and only them", async () => {
      const node = await create(
        {
          name: `an org ${family.path}`,
          ...family.minimal(orgOutHook),
          inputNodes: [webhookInput(orgHook)],
        },
        alice.token,
        { "x-organization-id": orgId },
      );
      expect(node.organizationId).toBe(orgId);
      const member = await api.call("GET", `/api/${family.path}/${node.id}`, {
        token: carol.token,
      });
      expect(member.status).toBe(200);
      const outsider = await api.call("GET", `/api/${family.path}/${node.id}`, {
        token: bob.token,
      });
      expect(outsider.status).toBe(403);
    });
  });

  describe("references across families", () => {
    it("rejects an input whose nodeType does not match the node it names", async () => {
      const filter = await createNode(api, alice.token, "filter-nodes", {
        name: "f",
        filters: [{ field: "a", operator: "exists" }],
      });
      const res = await api.call("POST", "/api/delay-nodes", {
        token: alice.token,
        body: {
          name: "d",
          delaySeconds: 1,
          inputNodes: [{ nodeType: "transform", nodeId: filter.id }],
        },
      });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(`inputNodes.0.nodeId: Unknown transform ${filter.id}`);
    });

    it("accepts the node type aliases and stores the canonical name", async () => {
      const filter = await createNode(api, alice.token, "filter-nodes", {
        name: "f",
        filters: [{ field: "a", operator: "exists" }],
      });
      const delay = await createNode(api, alice.token, "delay-nodes", {
        name: "d",
        delaySeconds: 1,
        inputNodes: [{ nodeType: "filterNode", nodeId: filter.id }],
      });
      expect(delay.inputNodes).toEqual([{ nodeType: "filter", nodeId: filter.id }]);
    });

    it("deleting a webhook removes it from the nodes it fed, and 409 when a router needs it", async () => {
      const db = api.services.db.db;
      const source = await insertWebhookRow(db, alice.userId);
      const target = await insertWebhookRow(db, alice.userId);
      const filter = await createNode(api, alice.token, "filter-nodes", {
        name: "fed by source",
        inputNodes: [webhookInput(source)],
        filters: [{ field: "a", operator: "exists" }],
      });
      const router = await createNode(api, alice.token, "routers", {
        name: "only route to target",
        inputNodes: [webhookInput(aliceHook)],
        routes: [{ field: "a", operator: "exists", outputWebhookId: target }],
      });

      const refused = await api.call("DELETE", `/api/webhooks/${target}`, { token: alice.token });
      expect(refused.status).toBe(409);
      expect(refused.body.message).toContain(router.id);
      expect(
        (await api.call("GET", `/api/webhooks/${target}`, { token: alice.token })).status,
      ).toBe(200);

      const deleted = await api.call("DELETE", `/api/webhooks/${source}`, { token: alice.token });
      expect(deleted.status).toBe(204);
      const after = await api.call("GET", `/api/filter-nodes/${filter.id}`, { token: alice.token });
      expect(after.body.inputNodes).toEqual([]);
    });

    it("rejects a router that forwards back into the webhook it listens to", async () => {
      const res = await api.call("POST", "/api/routers", {
        token: alice.token,
        body: {
          name: "loop",
          inputNodes: [webhookInput(aliceHook)],
          routes: [{ field: "a", operator: "exists", outputWebhookId: aliceHook }],
        },
      });
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/cycle: .*rtr_.* -> .*wh_/);
    });

    it("rejects a router output webhook the caller cannot see, naming the field", async () => {
      const res = await api.call("POST", "/api/routers", {
        token: alice.token,
        body: {
          name: "r",
          routes: [
            { field: "a", operator: "exists", outputWebhookId: aliceHook },
            { field: "b", operator: "exists", outputWebhookId: bobHook },
          ],
        },
      });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(`routes.1.outputWebhookId: Unknown webhook ${bobHook}`);
    });

    it("rejects a cycle through a rate limiter's output transforms", async () => {
      const transform = await createNode(api, alice.token, "transform-nodes", {
        name: "t",
        transformMode: "jq",
        template: ".",
        inputNodes: [webhookInput(aliceHook)],
      });
      const limiter = await createNode(api, alice.token, "rate-limiter-nodes", {
        name: "l",
        maxEvents: 1,
        windowSeconds: 1,
        inputNodes: [{ nodeType: "transform", nodeId: transform.id }],
      });
      const res = await api.call("PATCH", `/api/rate-limiter-nodes/${limiter.id}`, {
        token: alice.token,
        body: { outputTransformIds: [transform.id] },
      });
      expect(res.status).toBe(400);
      expect(res.body.message).toContain("cycle");
    });

    it("deleting a transform removes it from a rate limiter's outputTransformIds", async () => {
      const transform = await createNode(api, alice.token, "transform-nodes", {
        name: "t",
        transformMode: "jq",
        template: ".",
      });
      const limiter = await createNode(api, alice.token, "rate-limiter-nodes", {
        name: "l",
        maxEvents: 1,
        windowSeconds: 1,
        outputTransformIds: [transform.id],
      });
      const del = await api.call("DELETE", `/api/transform-nodes/${transform.id}`, {
        token: alice.token,
      });
      expect(del.status).toBe(204);
      const after = await api.call("GET", `/api/rate-limiter-nodes/${limiter.id}`, {
        token: alice.token,
      });
      expect(after.body.outputTransformIds).toEqual([]);
    });

    it("allows a diamond (two paths joining) since it is not a cycle", async () => {
      const a = await createNode(api, alice.token, "filter-nodes", {
        name: "a",
        filters: [{ field: "x", operator: "exists" }],
        inputNodes: [webhookInput(aliceHook)],
      });
      const b = await createNode(api, alice.token, "transform-nodes", {
        name: "b",
        transformMode: "jq",
        template: ".",
        inputNodes: [webhookInput(aliceHook)],
      });
      const merge = await createNode(api, alice.token, "merge-nodes", {
        name: "m",
        inputNodes: [
          { nodeType: "filter", nodeId: a.id },
          { nodeType: "transform", nodeId: b.id },
        ],
      });
      expect(merge.inputNodes).toHaveLength(2);
    });

    it("publishes a graph change for every node write", async () => {
      const listener = await listenTo(
        api.services.config.redisUrl,
        api.services.keys.graphChangedChannel,
      );
      try {
        const node = await createNode(api, alice.token, "delay-nodes", {
          name: "d",
          delaySeconds: 1,
        });
        await api.call("PATCH", `/api/delay-nodes/${node.id}`, {
          token: alice.token,
          body: { delaySeconds: 2 },
        });
        await api.call("DELETE", `/api/delay-nodes/${node.id}`, { token: alice.token });
        await eventually(() =>
          expect(listener.messages).toEqual([
            { nodeId: node.id },
            { nodeId: node.id },
            { nodeId: node.id },
          ]),
        );
      } finally {
        listener.close();
      }
    });

    it("publishes one graph change per write however many nodes it changes", async () => {
      const hook = await insertWebhookRow(api.services.db.db, alice.userId);
      const first = await createNode(api, alice.token, "filter-nodes", {
        name: "first",
        filters: [{ field: "x", operator: "exists" }],
        inputNodes: [webhookInput(hook)],
      });
      const second = await createNode(api, alice.token, "delay-nodes", {
        name: "second",
        delaySeconds: 1,
        inputNodes: [webhookInput(hook), { nodeType: "filter", nodeId: first.id }],
      });
      const listener = await listenTo(
        api.services.config.redisUrl,
        api.services.keys.graphChangedChannel,
      );
      try {
        // Detaches `second` from `first`: two nodes change, one message.
        await api.call("DELETE", `/api/filter-nodes/${first.id}`, { token: alice.token });
        // Detaches `second` from the webhook: one message naming it.
        await api.call("DELETE", `/api/webhooks/${hook}`, { token: alice.token });
        // Published on the same connection after the others, so it arrives last.
        const marker = await createNode(api, alice.token, "delay-nodes", {
          name: "marker",
          delaySeconds: 1,
        });
        await eventually(() =>
          expect(listener.messages).toEqual([
            { nodeId: first.id },
            { nodeId: second.id },
            { nodeId: marker.id },
          ]),
        );
      } finally {
        listener.close();
      }
    });

    it("leaves approval sub-paths to their own routes", async () => {
      const gate = await createNode(api, alice.token, "approval-nodes", { name: "gate" });
      const res = await api.call("GET", `/api/approval-nodes/${gate.id}/pending`, {
        token: alice.token,
      });
      expect(res.body?.id).not.toBe(gate.id);
    });

    it("documents every family's five operations in the OpenAPI document", async () => {
      const { body } = await api.call("GET", "/api/openapi.json");
      for (const family of FAMILIES) {
        const list = body.paths[`/api/${family.path}`];
        const one = body.paths[`/api/${family.path}/{id}`];
        expect([family.path, Object.keys(list).sort()]).toEqual([family.path, ["get", "post"]]);
        expect([family.path, Object.keys(one).sort()]).toEqual([
          family.path,
          ["delete", "get", "patch"],
        ]);
        expect(list.post.security).toEqual([{ bearerAuth: [] }]);
        expect(list.post.requestBody.required).toBe(true);
      }
    });
  });
});
