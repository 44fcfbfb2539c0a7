import { findApiKeyById, findUserByEmail, listMembershipsOfUser } from "@hookflow/db";
import { ConflictError, ForbiddenError, NotFoundError } from "@hookflow/domain";
import {
  addOrganizationMember,
  createApiKey,
  createOrganization,
  createUserAccount,
  createUserApiKey,
  listApiKeys,
  revokeApiKey,
  setUserPlan,
} from "../src/index.js";
import { actorOf, createTestContext, type TestContext } from "./service-context.js";

describe("identity verbs", () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(async () => {
    await ctx.close();
  });

  it("creates a user with a hashed password and refuses the same email twice", async () => {
    const user = await createUserAccount(ctx, { email: "Ada@Example.com", password: "pw-123456" });
    const row = await findUserByEmail(ctx.db.db, "ada@example.com");
    expect(row?.id).toBe(user.id);
    expect(row?.passwordHash).toMatch(/^scrypt\$/);
    await expect(
      createUserAccount(ctx, { email: "ada@example.com", password: "pw-123456" }),
    ).rejects.toBeInstanceOf(ConflictError);
  });

  it("keeps organizations and their members to people, and to owners and admins", async () => {
    const owner = await createUserAccount(ctx, { email: "o@example.com", password: "pw-123456" });
    const other = await createUserAccount(ctx, { email: "x@example.com", password: "pw-123456" });
    await expect(
      createOrganization(ctx, actorOf(owner.id, { kind: "apiKey" }), { name: "Acme" }),
    ).rejects.toBeInstanceOf(ForbiddenError);
    const org = await createOrganization(ctx, actorOf(owner.id), { name: "Acme" });
    expect(org.role).toBe("owner");
    await expect(
      addOrganizationMember(ctx, actorOf(other.id), {
        organizationId: org.id,
        email: "x@example.com",
        role: "admin",
      }),
    ).rejects.toBeInstanceOf(ForbiddenError);
    await addOrganizationMember(ctx, actorOf(owner.id), {
      organizationId: org.id,
      email: "x@example.com",
      role: "member",
    });
    const memberships = await listMembershipsOfUser(ctx.db.db, other.id);
    expect(memberships.map((m) => [m.organizationId, m.role])).toEqual([[org.id, "member"]]);
  });

  it("issues, lists and revokes keys only for their owner", async () => {
    const ann = await createUserAccount(ctx, { email: "ann@example.com", password: "pw-123456" });
    const bob = await createUserAccount(ctx, { email: "bob@example.com", password: "pw-123456" });
    const { apiKey, key } = await createApiKey(ctx, actorOf(ann.id), {
      name: "ci",
      scopes: ["events:read"],
    });
    expect(key.startsWith(apiKey.prefix)).toBe(true);
    expect((await listApiKeys(ctx, actorOf(ann.id))).map((k) => k.id)).toEqual([apiKey.id]);
    await expect(
      revokeApiKey(ctx, actorOf(bob.id), { apiKeyId: apiKey.id }),
    ).rejects.toBeInstanceOf(ForbiddenError);
    await revokeApiKey(ctx, actorOf(ann.id), { apiKeyId: apiKey.id });
    expect((await findApiKeyById(ctx.db.db, apiKey.id))?.revokedAt).toBeInstanceOf(Date);

    const issued = await createUserApiKey(ctx, {
      email: "bob@example.com",
      name: "cli",
      scopes: ["webhooks:read"],
    });
    expect(issued.apiKey.ownerId).toBe(bob.id);
    await expect(
      createUserApiKey(ctx, {
        email: "nobody@example.com",
        name: "cli",
        scopes: ["webhooks:read"],
      }),
    ).rejects.toBeInstanceOf(NotFoundError);
  });

  it("sets a user's plan, and 404s an unknown email", async () => {
    await createUserAccount(ctx, { email: "plan@example.com", password: "pw-123456" });
    await expect(setUserPlan(ctx, { email: "PLAN@example.com", plan: "pro" })).resolves.toEqual({
      email: "plan@example.com",
      plan: "pro",
    });
    expect((await findUserByEmail(ctx.db.db, "plan@example.com"))?.plan).toBe("pro");
    await expect(
      setUserPlan(ctx, { email: "none@example.com", plan: "pro" }),
    ).rejects.toBeInstanceOf(NotFoundError);
  });
});
