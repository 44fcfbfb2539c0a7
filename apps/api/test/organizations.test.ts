import { createApiKeyFor, createOrganizationWith, createUserWithSession } from "./fixtures.js";
import { type ApiHarness, startApi } from "./harness.js";

describe("organizations", () => {
  let api: ApiHarness;
  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(async () => {
    await api.close();
  });

  const user = () => createUserWithSession(api.database.db);
  const roleOf = async (organizationId: string, userId: string) => {
    const rows = await api.database.sql`
      select role from memberships where organization_id = ${organizationId} and user_id = ${userId}`;
    return rows[0]?.role as string | undefined;
  };

  describe("create and list", () => {
    it("creates an organization whose creator is its owner", async () => {
      const alice = await user();
      const res = await api.call("POST", "/api/organizations", {
        token: alice.token,
        body: { name: "  Acme  " },
      });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.stringMatching(/^org_/),
        _id: res.body.id,
        name: "Acme",
        role: "owner",
        createdBy: alice.userId,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      expect(await roleOf(res.body.id, alice.userId)).toBe("owner");
    });

    it("lists only the caller's organizations, each with the caller's role", async () => {
      const alice = await user();
      const bob = await user();
      const mine = await api.call("POST", "/api/organizations", {
        token: alice.token,
        body: { name: "Mine" },
      });
      await api.call("POST", "/api/organizations", { token: bob.token, body: { name: "Bobs" } });
      const shared = await createOrganizationWith(api.database.db, [
        { userId: bob.userId, role: "owner" },
        { userId: alice.userId, role: "member" },
      ]);
      const res = await api.call("GET", "/api/organizations", { token: alice.token });
      expect(res.status).toBe(200);
      expect(res.body.map((o: { id: string; role: string }) => [o.id, o.role])).toEqual([
        [mine.body.id, "owner"],
        [shared, "member"],
      ]);
    });

    it("answers 400 naming name when it is missing or empty", async () => {
      const alice = await user();
      for (const body of [{}, { name: "   " }, { name: "x".repeat(201) }]) {
        const res = await api.call("POST", "/api/organizations", { token: alice.token, body });
        expect(res.status).toBe(400);
        expect(res.body.message).toMatch(/^name: /);
      }
    });

    it("needs a credential (401) and a session rather than an API key (403)", async () => {
      expect((await api.call("GET", "/api/organizations")).status).toBe(401);
      const alice = await user();
      const { key } = await createApiKeyFor(api.database.db, alice.userId, {
        scopes: ["webhooks:write"],
      });
      const res = await api.call("POST", "/api/organizations", {
        token: key,
        body: { name: "By key" },
      });
      expect(res.status).toBe(403);
      expect((await api.call("GET", "/api/organizations", { token: key })).status).toBe(403);
    });
  });

  describe("adding members", () => {
    it("lets an owner add an existing user by email with a role", async () => {
      const owner = await user();
      const newcomer = await user();
      const org = await createOrganizationWith(api.database.db, [
        { userId: owner.userId, role: "owner" },
      ]);
      const res = await api.call("POST", `/api/organizations/${org}/members`, {
        token: owner.token,
        body: { email: newcomer.email.toUpperCase(), role: "admin" },
      });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        organizationId: org,
        userId: newcomer.userId,
        email: newcomer.email,
        name: "Test User",
        role: "admin",
        createdAt: expect.any(String),
      });
      expect(await roleOf(org, newcomer.userId)).toBe("admin");
      const list = await api.call("GET", "/api/organizations", { token: newcomer.token });
      expect(list.body).toEqual([expect.objectContaining({ id: org, role: "admin" })]);
    });

    it("lets an admin add a member but not an owner", async () => {
      const owner = await user();
      const admin = await user();
      const a = await user();
      const b = await user();
      const org = await createOrganizationWith(api.database.db, [
        { userId: owner.userId, role: "owner" },
        { userId: admin.userId, role: "admin" },
      ]);
      const ok = await api.call("POST", `/api/organizations/${org}/members`, {
        token: admin.token,
        body: { email: a.email, role: "member" },
      });
      expect(ok.status).toBe(201);
      const refused = await api.call("POST", `/api/organizations/${org}/members`, {
        token: admin.token,
        body: { email: b.email, role: "owner" },
      });
      expect(refused.status).toBe(403);
      expect(await roleOf(org, b.userId)).toBeUndefined();
    });

    it("refuses a plain member with 403", async () => {
      const owner = await user();
      const member = await user();
      const other = await user();
      const org = await createOrganizationWith(api.database.db, [
        { userId: owner.userId, role: "owner" },
        { userId: member.userId, role: "member" },
      ]);
      const res = await api.call("POST", `/api/organizations/${org}/members`, {
        token: member.token,
        body: { email: other.email, role: "member" },
      });
      expect(res.status).toBe(403);
      expect(await roleOf(org, other.userId)).toBeUndefined();
    });

    it("answers 404 for an email without an account and 409 for an existing member", async () => {
      const owner = await user();
      const member = await user();
      const org = await createOrganizationWith(api.database.db, [
        { userId: owner.userId, role: "owner" },
        { userId: member.userId, role: "member" },
      ]);
      const unknown = await api.call("POST", `/api/organizations/${org}/members`, {
        token: owner.token,
        body: { email: "nobody-here@example.com", role: "member" },
      });
      expect(unknown.status).toBe(404);
      const again = await api.call("POST", `/api/organizations/${org}/members`, {
        token: owner.token,
        body: { email: member.email, role: "admin" },
      });
      expect(again.status).toBe(409);
      expect(await roleOf(org, member.userId)).toBe("member");
    });

    it.each([
      ["email", { role: "member" }],
      ["email", { email: "not-an-email", role: "member" }],
      ["role", { email: "x@example.com", role: "superuser" }],
    ])("answers 400 naming %s when it is invalid", async (field, body) => {
      const owner = await user();
      const org = await createOrganizationWith(api.database.db, [
        { userId: owner.userId, role: "owner" },
      ]);
      const res = await api.call("POST", `/api/organizations/${org}/members`, {
        token: owner.token,
        body,
      });
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(new RegExp(`^${field}: `));
    });

    it("answers 403 to a non-member for an existing organization and 404 for an unknown one", async () => {
      const owner = await user();
      const outsider = await user();
      const org = await createOrganizationWith(api.database.db, [
        { userId: owner.userId, role: "owner" },
      ]);
      const forbidden = await api.call("POST", `/api/organizations/${org}/members`, {
        token: outsider.token,
        body: { email: outsider.email, role: "owner" },
      });
      expect(forbidden.status).toBe(403);
      expect(await roleOf(org, outsider.userId)).toBeUndefined();
      const missing = await api.call("POST", "/api/organizations/org_unknown/members", {
        token: outsider.token,
        body: { email: outsider.email, role: "owner" },
      });
      expect(missing.status).toBe(404);
    });
  });

  describe("removing members", () => {
    it("lets an owner remove a member, who then loses access", async () => {
      const owner = await user();
      const member = await user();
      const org = await createOrganizationWith(api.database.db, [
        { userId: owner.userId, role: "owner" },
        { userId: member.userId, role: "member" },
      ]);
      const headers = { "x-organization-id": org };
      expect((await api.call("GET", "/api/auth/me", { token: member.token, headers })).status).toBe(
        200,
      );
      const res = await api.call("DELETE", `/api/organizations/${org}/members/${member.userId}`, {
        token: owner.token,
      });
      expect(res.status).toBe(204);
      expect(await roleOf(org, member.userId)).toBeUndefined();
      expect((await api.call("GET", "/api/auth/me", { token: member.token, headers })).status).toBe(
        403,
      );
    });

    it("never removes the last owner (409) but removes an owner who has a co-owner", async () => {
      const owner = await user();
      const org = await createOrganizationWith(api.database.db, [
        { userId: owner.userId, role: "owner" },
      ]);
      const last = await api.call("DELETE", `/api/organizations/${org}/members/${owner.userId}`, {
        token: owner.token,
      });
      expect(last.status).toBe(409);
      expect(last.body.message).toBe("The last owner of an organization cannot be removed");
      expect(await roleOf(org, owner.userId)).toBe("owner");

      const coOwner = await user();
      await api.call("POST", `/api/organizations/${org}/members`, {
        token: owner.token,
        body: { email: coOwner.email, role: "owner" },
      });
      const res = await api.call("DELETE", `/api/organizations/${org}/members/${owner.userId}`, {
        token: coOwner.token,
      });
      expect(res.status).toBe(204);
      expect(await roleOf(org, owner.userId)).toBeUndefined();
    });

    it("keeps one owner when two owners remove each other at the same time", async () => {
      const a = await user();
      const b = await user();
      const org = await createOrganizationWith(api.database.db, [
        { userId: a.userId, role: "owner" },
        { userId: b.userId, role: "owner" },
      ]);
      const results = await Promise.all([
        api.call("DELETE", `/api/organizations/${org}/members/${b.userId}`, { token: a.token }),
        api.call("DELETE", `/api/organizations/${org}/members/${a.userId}`, { token: b.token }),
      ]);
      const rows = await api.database.sql`
        select user_id from memberships where organization_id = ${org} and role = 'owner'`;
      expect(rows).toHaveLength(1);
      expect(results.filter((r) => r.status === 204)).toHaveLength(1);
    });

    it("refuses a plain member (403) and an admin removing an owner (403)", async () => {
      const owner = await user();
      const admin = await user();
      const member = await user();
      const org = await createOrganizationWith(api.database.db, [
        { userId: owner.userId, role: "owner" },
        { userId: admin.userId, role: "admin" },
        { userId: member.userId, role: "member" },
      ]);
      const byMember = await api.call(
        "DELETE",
        `/api/organizations/${org}/members/${admin.userId}`,
        {
          token: member.token,
        },
      );
      expect(byMember.status).toBe(403);
      const byAdmin = await api.call(
        "DELETE",
        `/api/organizations/${org}/members/${owner.userId}`,
        {
          token: admin.token,
        },
      );
      expect(byAdmin.status).toBe(403);
      expect(await roleOf(org, owner.userId)).toBe("owner");
      expect(await roleOf(org, admin.userId)).toBe("admin");
      const adminRemovesMember = await api.call(
        "DELETE",
        `/api/organizations/${org}/members/${member.userId}`,
        { token: admin.token },
      );
      expect(adminRemovesMember.status).toBe(204);
    });

    it("answers 404 for a user who is not a member and for an unknown organization", async () => {
      const owner = await user();
      const stranger = await user();
      const org = await createOrganizationWith(api.database.db, [
        { userId: owner.userId, role: "owner" },
      ]);
      const notMember = await api.call(
        "DELETE",
        `/api/organizations/${org}/members/${stranger.userId}`,
        { token: owner.token },
      );
      expect(notMember.status).toBe(404);
      const unknownOrg = await api.call(
        "DELETE",
        `/api/organizations/org_unknown/members/${owner.userId}`,
        { token: owner.token },
      );
      expect(unknownOrg.status).toBe(404);
    });

    it("answers 403 to a non-member of an existing organization", async () => {
      const owner = await user();
      const outsider = await user();
      const org = await createOrganizationWith(api.database.db, [
        { userId: owner.userId, role: "owner" },
      ]);
      const res = await api.call("DELETE", `/api/organizations/${org}/members/${owner.userId}`, {
        token: outsider.token,
      });
      expect(res.status).toBe(403);
      expect(await roleOf(org, owner.userId)).toBe("owner");
    });
  });
});
