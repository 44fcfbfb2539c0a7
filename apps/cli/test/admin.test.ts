import { loadConfig } from "@hookflow/config";
import { findActiveApiKey, findUserByEmail } from "@hookflow/db";
import { hashToken, verifyPassword } from "@hookflow/domain";
import { createTestDatabase, type TestDatabase } from "@hookflow/testing";
import { run as createKey } from "../src/commands/admin-create-key.js";
import { run as createUser } from "../src/commands/admin-create-user.js";
import type { AdminIo } from "../src/commands/admin-shared.js";

function collector(): AdminIo & { out: () => string; err: () => string } {
  let out = "";
  let err = "";
  return {
    stdout: { write: (text: string) => (out += text) },
    stderr: { write: (text: string) => (err += text) },
    out: () => out,
    err: () => err,
  };
}

describe("hookflow admin commands", () => {
  let database: TestDatabase;
  let config: ReturnType<typeof loadConfig>;
  beforeAll(async () => {
    database = await createTestDatabase();
    config = loadConfig({ NODE_ENV: "test", DATABASE_URL: database.url, LOG_LEVEL: "silent" });
  });
  afterAll(async () => {
    await database.destroy();
  });

  async function userCmd(args: string[]) {
    const io = collector();
    const code = await createUser(args, config, io);
    return { code, out: io.out(), err: io.err() };
  }
  async function keyCmd(args: string[]) {
    const io = collector();
    const code = await createKey(args, config, io);
    return { code, out: io.out(), err: io.err() };
  }

  describe("create-user", () => {
    it("creates a user whose password verifies, and prints it as JSON", async () => {
      const res = await userCmd([
        "--email",
        "Ops@Example.com",
        "--password",
        "operator-password",
        "--name",
        "Ops",
      ]);
      expect(res.err).toBe("");
      expect(res.code).toBe(0);
      const printed = JSON.parse(res.out);
      expect(printed).toEqual({
        id: expect.stringMatching(/^usr_/),
        _id: printed.id,
        email: "ops@example.com",
        name: "Ops",
        plan: "free",
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      const row = await findUserByEmail(database.db, "ops@example.com");
      expect(row?.id).toBe(printed.id);
      await expect(verifyPassword("operator-password", row?.passwordHash ?? "")).resolves.toBe(
        true,
      );
    });

    it("exits 1 with a clear message when the email is taken", async () => {
      await userCmd(["--email", "taken@example.com", "--password", "first-password"]);
      const res = await userCmd(["--email", "TAKEN@example.com", "--password", "second-password"]);
      expect(res.code).toBe(1);
      expect(res.out).toBe("");
      expect(res.err).toMatch(/already exists/);
    });

    it.each([
      [
        "a password that is too short",
        ["--email", "a@example.com", "--password", "short"],
        /password/,
      ],
      ["a missing email", ["--password", "long-enough-password"], /--email is required/],
      ["a missing password", ["--email", "b@example.com"], /--password is required/],
      [
        "an unknown flag",
        ["--email", "c@example.com", "--password", "x".repeat(10), "--admin"],
        /--admin/,
      ],
      ["an invalid email", ["--email", "nope", "--password", "long-enough-password"], /email/],
    ])("exits 2 for %s", async (_label, args, message) => {
      const res = await userCmd(args);
      expect(res.code).toBe(2);
      expect(res.out).toBe("");
      expect(res.err).toMatch(message);
    });

    it("prints its usage with --help", async () => {
      const res = await userCmd(["--help"]);
      expect(res.code).toBe(0);
      expect(res.out).toMatch(/^Usage: hookflow admin create-user/);
    });
  });

  describe("create-key", () => {
    let userId: string;
    beforeAll(async () => {
      const res = await userCmd(["--email", "keys@example.com", "--password", "keys-password"]);
      userId = JSON.parse(res.out).id;
    });

    it("creates a working key for the user and prints its value once", async () => {
      const res = await keyCmd([
        "--email",
        "keys@example.com",
        "--scopes",
        "events:read, webhooks:write",
        "--name",
        "deploy",
      ]);
      expect(res.err).toBe("");
      expect(res.code).toBe(0);
      const printed = JSON.parse(res.out);
      expect(printed).toMatchObject({
        name: "deploy",
        ownerId: userId,
        organizationId: null,
        scopes: ["events:read", "webhooks:write"],
        allowedOrigins: [],
      });
      expect(printed.key).toMatch(/^hf_live_[A-Za-z0-9]{40}$/);
      expect(printed.prefix).toBe(printed.key.slice(0, 12));
      const stored = await findActiveApiKey(database.db, hashToken(printed.key));
      expect(stored).toMatchObject({ id: printed.id, ownerId: userId });
    });

    it("creates a key for an organization the user belongs to", async () => {
      const orgId = "org_cli_test";
      await database.sql`insert into organizations (id, name, created_by) values (${orgId}, 'Cli Org', ${userId})`;
      await database.sql`insert into memberships (organization_id, user_id, role) values (${orgId}, ${userId}, 'owner')`;
      const res = await keyCmd([
        "--email",
        "keys@example.com",
        "--scopes",
        "events:read",
        "--org",
        orgId,
      ]);
      expect(res.code).toBe(0);
      expect(JSON.parse(res.out).organizationId).toBe(orgId);
    });

    it("exits 1 for an unknown user or an organization the user is not in", async () => {
      const unknown = await keyCmd(["--email", "ghost@example.com", "--scopes", "events:read"]);
      expect(unknown.code).toBe(1);
      expect(unknown.err).toMatch(/No user with email ghost@example.com/);
      const foreign = await keyCmd([
        "--email",
        "keys@example.com",
        "--scopes",
        "events:read",
        "--org",
        "org_not_mine",
      ]);
      expect(foreign.code).toBe(1);
      expect(foreign.err).toMatch(/not a member/);
      expect(foreign.out).toBe("");
    });

    it.each([
      ["a missing email", ["--scopes", "events:read"], /--email is required/],
      ["missing scopes", ["--email", "keys@example.com"], /--scopes needs at least one scope/],
      ["an unknown scope", ["--email", "keys@example.com", "--scopes", "root"], /scopes\.0/],
      [
        "a past expiry",
        [
          "--email",
          "keys@example.com",
          "--scopes",
          "events:read",
          "--expires-at",
          "2000-01-01T00:00:00Z",
        ],
        /expiresAt: must be in the future/,
      ],
    ])("exits 2 for %s", async (_label, args, message) => {
      const before = await database.sql`select count(*)::int as n from api_keys`;
      const res = await keyCmd(args);
      expect(res.code).toBe(2);
      expect(res.err).toMatch(message);
      const after = await database.sql`select count(*)::int as n from api_keys`;
      expect(after[0]?.n).toBe(before[0]?.n);
    });
  });
});
