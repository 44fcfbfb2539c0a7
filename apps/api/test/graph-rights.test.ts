import { withGraphWriteLock } from "@hookflow/db";
import { waitUntil } from "@hookflow/testing";
import { createOrganizationWith, createUserWithSession } from "./fixtures.js";
import { type ApiHarness, startApi } from "./harness.js";
import { createNode, insertNodeRow, insertWebhookRow, webhookInput } from "./nodes-fixtures.js";

type User = Awaited<ReturnType<typeof createUserWithSession>>;

const route = (outputWebhookId: string) => ({
  field: "type",
  operator: "exists" as const,
  outputWebhookId,
});
const anyFilter = [{ field: "type", operator: "exists" }];

/**
 * Graph rights: a node belongs to one owner scope (an organization, or a user's personal space),
 * connects only records of that scope, and org owners and admins manage every node of their
 * webhooks' graphs. Graph writes lock per scope.
 */
describe("graph rights", () => {
  let api: ApiHarness;
  let owner: User;
  let admin: User;
  let member: User;
  let outsider: User;
  let org: string;
  let orgHook: string;
  let orgOutHook: string;
  let memberHook: string;
  const asOrg = () => ({ "x-organization-id": org });

  beforeAll(async () => {
    api = await startApi();
    const db = api.services.db.db;
    owner = await createUserWithSession(db);
    admin = await createUserWithSession(db);
    member = await createUserWithSession(db);
    outsider = await createUserWithSession(db);
    org = await createOrganizationWith(db, [
      { userId: owner.userId, role: "owner" },
      { userId: admin.userId, role: "admin" },
      { userId: member.userId, role: "member" },
    ]);
    // The member created the organization's webhooks; their personal one receives their own data.
    orgHook = await insertWebhookRow(db, member.userId, { organizationId: org });
    orgOutHook = await insertWebhookRow(db, member.userId, { organizationId: org });
    memberHook = await insertWebhookRow(db, member.userId, { targetUrl: "https://member.test/x" });
  });
  afterAll(async () => {
    await api.close();
  });

  describe("nodes connect records of their own owner scope only", () => {
    it("refuses a member's personal router attached to an organization webhook", async () => {
      const res = await api.call("POST", "/api/routers", {
        token: member.token,
        body: {
          name: "exfiltrate",
          inputNodes: [webhookInput(orgHook)],
          routes: [route(memberHook)],
        },
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ statusCode: 400, error: "Bad Request" });
      expect(res.body.message).toBe(
        `inputNodes.0.nodeId: webhook ${orgHook} belongs to organization ${org}, this node to ` +
          `the personal space of ${member.userId}; a node only connects records of its own ` +
          "organization or personal space",
      );
    });

    it("refuses an organization router that forwards into a member's personal webhook", async () => {
      const res = await api.call("POST", "/api/routers", {
        token: member.token,
        headers: asOrg(),
        body: {
          name: "exfiltrate",
          inputNodes: [webhookInput(orgHook)],
          routes: [route(memberHook)],
        },
      });
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(
        new RegExp(`^routes\\.0\\.outputWebhookId: webhook ${memberHook} belongs to the personal`),
      );
    });

    it("refuses a PATCH that adds a reference of another scope, and an input node of another scope", async () => {
      const orgFilter = await createNode(
        api,
        member.token,
        "filter-nodes",
        { name: "org filter", inputNodes: [webhookInput(orgHook)], filters: anyFilter },
        asOrg(),
      );
      const patched = await api.call("PATCH", `/api/filter-nodes/${orgFilter.id}`, {
        token: member.token,
        body: { inputNodes: [webhookInput(orgHook), webhookInput(memberHook)] },
      });
      expect(patched.status).toBe(400);
      expect(patched.body.message).toMatch(
        /^inputNodes\.1\.nodeId: webhook .* belongs to the personal/,
      );
      const personal = await api.call("POST", "/api/delay-nodes", {
        token: member.token,
        body: {
          name: "d",
          delaySeconds: 1,
          inputNodes: [{ nodeType: "filter", nodeId: orgFilter.id }],
        },
      });
      expect(personal.status).toBe(400);
      expect(personal.body.message).toMatch(
        /^inputNodes\.0\.nodeId: filter .* belongs to organization/,
      );
    });

    it("lets org owners and admins list, edit and delete a node a member built in the org's graph", async () => {
      const router = await createNode(
        api,
        member.token,
        "routers",
        {
          name: "member's router",
          inputNodes: [webhookInput(orgHook)],
          routes: [route(orgOutHook)],
        },
        asOrg(),
      );
      for (const manager of [owner, admin]) {
        const list = await api.call("GET", "/api/routers", {
          token: manager.token,
          headers: asOrg(),
        });
        expect(list.body.map((n: { id: string }) => n.id)).toContain(router.id);
        const edit = await api.call("PATCH", `/api/routers/${router.id}`, {
          token: manager.token,
          body: { name: `renamed by ${manager.userId}` },
        });
        expect(edit.status).toBe(200);
      }
      const outsiderGet = await api.call("GET", `/api/routers/${router.id}`, {
        token: outsider.token,
      });
      expect(outsiderGet.status).toBe(403);
      const removed = await api.call("DELETE", `/api/routers/${router.id}`, { token: admin.token });
      expect(removed.status).toBe(204);
    });
  });

  it("leaves the nodes a removed member built with the organization, out of the member's reach", async () => {
    const db = api.services.db.db;
    const leaver = await createUserWithSession(db);
    await api.call("POST", `/api/organizations/${org}/members`, {
      token: owner.token,
      body: { email: leaver.email, role: "member" },
    });
    const router = await createNode(
      api,
      leaver.token,
      "routers",
      { name: "leaver's router", inputNodes: [webhookInput(orgHook)], routes: [route(orgOutHook)] },
      asOrg(),
    );
    const removed = await api.call("DELETE", `/api/organizations/${org}/members/${leaver.userId}`, {
      token: owner.token,
    });
    expect(removed.status).toBe(204);
    for (const [method, body] of [
      ["GET", undefined],
      ["PATCH", { routes: [route(orgHook)] }],
      ["DELETE", undefined],
    ] as const) {
      const res = await api.call(method, `/api/routers/${router.id}`, {
        token: leaver.token,
        body,
      });
      expect({ method, status: res.status }).toEqual({ method, status: 403 });
    }
    const kept = await api.call("GET", `/api/routers/${router.id}`, { token: admin.token });
    expect(kept.body).toMatchObject({ organizationId: org, ownerId: leaver.userId });
  });

  describe("nodes stored before the rule", () => {
    it("never make an organization webhook undeletable for its admins", async () => {
      const db = api.services.db.db;
      const doomed = await insertWebhookRow(db, member.userId, { organizationId: org });
      // A member's personal router whose only route leads into the org's webhook: the admin can
      // neither see nor fix it, so it must not block the delete (it used to answer 409).
      const foreign = await insertNodeRow(
        db,
        { ownerId: member.userId },
        "router",
        {
          routes: [route(doomed)],
        },
        [webhookInput(memberHook)],
      );
      const res = await api.call("DELETE", `/api/webhooks/${doomed}`, { token: admin.token });
      expect(res.status).toBe(204);
      const kept = await api.call("GET", `/api/routers/${foreign}`, { token: member.token });
      expect(kept.status).toBe(200);
    });

    it("still answer 409 for a node of the webhook's own scope that cannot do without it", async () => {
      const db = api.services.db.db;
      const needed = await insertWebhookRow(db, member.userId, { organizationId: org });
      const router = await createNode(
        api,
        member.token,
        "routers",
        { name: "only route", inputNodes: [webhookInput(orgHook)], routes: [route(needed)] },
        asOrg(),
      );
      const res = await api.call("DELETE", `/api/webhooks/${needed}`, { token: admin.token });
      expect(res.status).toBe(409);
      expect(res.body.message).toContain(router.id);
    });
  });

  describe("graph writes lock per owner scope", () => {
    /** Holds the scope's graph write lock until the returned function is called. */
    async function holdScopeLock(scope: { organizationId: string } | { personalOf: string }) {
      let release = () => {};
      let held = () => {};
      const acquired = new Promise<void>((resolve) => {
        held = resolve;
      });
      const done = withGraphWriteLock(api.services.db.db, scope, async () => {
        held();
        await new Promise<void>((resolve) => {
          release = resolve;
        });
      });
      await acquired;
      return async () => {
        release();
        await done;
      };
    }

    const waitingGraphLocks = async () => {
      const [row] = await api.database.sql<Array<{ n: number }>>`
        select count(*)::int as n from pg_locks l join pg_database d on d.oid = l.database
        where l.locktype = 'advisory' and not l.granted and d.datname = current_database()`;
      return row?.n ?? 0;
    };

    it("lets another tenant write while one tenant's graph write is in progress", async () => {
      const db = api.services.db.db;
      const hook = await insertWebhookRow(db, outsider.userId);
      const release = await holdScopeLock({ organizationId: org });
      try {
        let answer: { status: number } | undefined;
        void api
          .call("POST", "/api/filter-nodes", {
            token: outsider.token,
            body: { name: "elsewhere", inputNodes: [webhookInput(hook)], filters: anyFilter },
          })
          .then((res) => {
            answer = res;
          });
        const settled = await waitUntil(() => answer);
        expect(settled.status).toBe(201);
        // A write of the locked organization waits for it.
        const blocked = api.call("POST", "/api/filter-nodes", {
          token: member.token,
          headers: asOrg(),
          body: { name: "same org", inputNodes: [webhookInput(orgHook)], filters: anyFilter },
        });
        await waitUntil(async () => ((await waitingGraphLocks()) >= 1 ? true : undefined));
        await release();
        expect((await blocked).status).toBe(201);
      } finally {
        await release();
      }
    });

    it("still lets no two concurrent writes of one tenant close a cycle together", async () => {
      const make = (name: string) =>
        createNode(
          api,
          member.token,
          "filter-nodes",
          {
            name,
            inputNodes: [webhookInput(orgHook)],
            filters: anyFilter,
          },
          asOrg(),
        );
      const a = await make("a");
      const b = await make("b");
      const feed = (nodeId: string, fromId: string) =>
        api.call("PATCH", `/api/filter-nodes/${nodeId}`, {
          token: member.token,
          body: { inputNodes: [webhookInput(orgHook), { nodeType: "filter", nodeId: fromId }] },
        });
      const release = await holdScopeLock({ organizationId: org });
      let answers: Array<{ status: number; body: { message?: string } }>;
      try {
        // Both wait on the lock, each valid alone: b -> a and a -> b would close a cycle.
        const pending = Promise.all([feed(a.id, b.id), feed(b.id, a.id)]);
        await waitUntil(async () => ((await waitingGraphLocks()) >= 2 ? true : undefined));
        await release();
        answers = await pending;
      } finally {
        await release();
      }
      expect(answers.map((r) => r.status).sort()).toEqual([200, 400]);
      const refused = answers.find((r) => r.status === 400);
      expect(refused?.body.message).toMatch(/cycle/);
    });
  });
});
