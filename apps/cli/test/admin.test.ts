import { loadConfig } from "@hookflow/config";
import { findActiveApiKey, findUserByEmail } from "@hookflow/db";
import {
  createKeyRing,
  credentialSealContext,
  hashToken,
  openWebhookSecrets,
  sealedKeyId,
  sealWebhookSecrets,
  verifyPassword,
} from "@hookflow/domain";
import { createTestDatabase, type TestDatabase } from "@hookflow/testing";
import { run as createKey } from "../src/commands/admin-create-key.js";
import { run as createUser } from "../src/commands/admin-create-user.js";
import { run as rotateKey } from "../src/commands/admin-rotate-encryption-key.js";
import { run as setPlan } from "../src/commands/admin-set-plan.js";
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

  describe("rotate-encryption-key", () => {
    const oldKey = "a1".repeat(32);
    const newKey = "b2".repeat(32);
    const configWith = (env: Record<string, string>) =>
      loadConfig({ NODE_ENV: "test", DATABASE_URL: database.url, LOG_LEVEL: "silent", ...env });
    async function rotateCmd(args: string[], env: Record<string, string>) {
      const io = collector();
      const code = await rotateKey(args, configWith(env), io);
      return { code, out: io.out(), err: io.err() };
    }

    it("re-encrypts every webhook credential under the new key, so the old key can go", async () => {
      const [owner] = await database.sql`select id from users limit 1`;
      const oldRing = createKeyRing({ current: Buffer.from(oldKey, "hex") });
      const secrets = {
        ingressToken: "token-sealed-under-the-old-key",
        signingSecret: "whsec_old_key_signing",
        incomingSignatureSecret: "incoming-old-key",
      };
      const sealed = sealWebhookSecrets(oldRing, "wh_rotate_1", secrets);
      await database.sql`insert into webhooks (id, owner_id, name, ingress_token, token_hash,
          signing_secret, incoming_signature_type, incoming_signature_secret)
        values ('wh_rotate_1', ${owner?.id}, 'rotate', ${sealed.ingressToken}, ${sealed.tokenHash},
          ${sealed.signingSecret}, 'github', ${sealed.incomingSignatureSecret})`;
      // A row from before encryption at rest is sealed on the way.
      await database.sql`insert into webhooks (id, owner_id, name, ingress_token, signing_secret)
        values ('wh_rotate_2', ${owner?.id}, 'legacy', 'legacy-token-in-clear', 'whsec_clear')`;
      // A stored credential's data is re-encrypted with them.
      const credentialData = JSON.stringify({ token: "bearer-old-key-token" });
      const sealedCredential = oldRing.seal(credentialData, credentialSealContext("cred_rotate_1"));
      await database.sql`insert into credentials (id, owner_id, name, type, data)
        values ('cred_rotate_1', ${owner?.id}, 'api', 'bearer', ${sealedCredential})`;

      const env = { HOOKFLOW_ENCRYPTION_KEY: newKey, HOOKFLOW_ENCRYPTION_KEYS_PREVIOUS: oldKey };
      const res = await rotateCmd(["--batch-size", "1"], env);
      expect(res.err).toBe("");
      expect(res.code).toBe(0);
      const newRing = createKeyRing({ current: Buffer.from(newKey, "hex") });
      expect(JSON.parse(res.out)).toEqual({
        keyId: newRing.currentKeyId,
        webhooksResealed: expect.any(Number),
        webhooksChangedMeanwhile: 0,
        webhooksNotOpened: [],
        credentialsResealed: 1,
        credentialsChangedMeanwhile: 0,
        credentialsNotOpened: [],
      });
      const [credential] =
        await database.sql`select data from credentials where id = 'cred_rotate_1'`;
      expect(sealedKeyId(credential?.data)).toBe(newRing.currentKeyId);
      expect(credential?.data).not.toMatch(/old-key/);
      expect(newRing.open(credential?.data, credentialSealContext("cred_rotate_1"))).toBe(
        credentialData,
      );

      const rows =
        await database.sql`select * from webhooks where id like 'wh_rotate_%' order by id`;
      expect(JSON.stringify(rows)).not.toMatch(/old-key|old_key|in-clear|whsec_clear/);
      const opened = rows.map((row) => {
        for (const column of ["ingress_token", "signing_secret"]) {
          expect(sealedKeyId(row[column])).toBe(newRing.currentKeyId);
        }
        return openWebhookSecrets(newRing, {
          id: row.id,
          ingressToken: row.ingress_token,
          signingSecret: row.signing_secret,
          incomingSignatureSecret: row.incoming_signature_secret,
        });
      });
      expect(opened).toEqual([
        secrets,
        {
          ingressToken: "legacy-token-in-clear",
          signingSecret: "whsec_clear",
          incomingSignatureSecret: null,
        },
      ]);
      expect(rows.map((row) => row.token_hash)).toEqual([
        newRing.lookupHash(secrets.ingressToken),
        newRing.lookupHash("legacy-token-in-clear"),
      ]);

      // Idempotent: a second run finds nothing to do and changes nothing.
      const again = await rotateCmd([], env);
      expect(JSON.parse(again.out)).toMatchObject({ webhooksResealed: 0, credentialsResealed: 0 });
      expect(
        await database.sql`select * from webhooks where id like 'wh_rotate_%' order by id`,
      ).toEqual(rows);
    });

    it("exits 1 and names the rows when the key they were sealed with is not configured", async () => {
      const res = await rotateCmd([], { HOOKFLOW_ENCRYPTION_KEY: "c3".repeat(32) });
      expect(res.code).toBe(1);
      expect(JSON.parse(res.out).webhooksNotOpened).toEqual(
        expect.arrayContaining([{ id: "wh_rotate_1", reason: "unknown_key" }]),
      );
      expect(JSON.parse(res.out).credentialsNotOpened).toEqual([
        { id: "cred_rotate_1", reason: "unknown_key" },
      ]);
      expect(res.err).toMatch(/HOOKFLOW_ENCRYPTION_KEYS_PREVIOUS/);
    });

    it("exits 2 for a bad batch size and prints its usage with --help", async () => {
      expect((await rotateCmd(["--batch-size", "0"], {})).code).toBe(2);
      const help = await rotateCmd(["--help"], {});
      expect(help.code).toBe(0);
      expect(help.out).toMatch(/^Usage: hookflow admin rotate-encryption-key/);
    });
  });

  describe("set-plan", () => {
    async function planCmd(args: string[]) {
      const io = collector();
      const code = await setPlan(args, config, io);
      return { code, out: io.out(), err: io.err() };
    }

    it("sets a user's plan by email and an organization's by id", async () => {
      const created = await userCmd(["--email", "Plan@Example.com", "--password", "plan-password"]);
      expect(created.code).toBe(0);
      const res = await planCmd(["--email", "plan@example.com", "pro"]);
      expect(res).toMatchObject({ code: 0, err: "" });
      expect(JSON.parse(res.out)).toEqual({ email: "plan@example.com", plan: "pro" });
      const [user] = await database.sql<Array<{ plan: string }>>`
        select plan from users where lower(email) = 'plan@example.com'`;
      expect(user?.plan).toBe("pro");

      const { id: userId } = JSON.parse(created.out) as { id: string };
      await database.sql`
        insert into organizations (id, name, created_by) values ('org_plan_test', 'P', ${userId})`;
      expect((await planCmd(["--org", "org_plan_test", "pro"])).code).toBe(0);
      expect((await planCmd(["--org", "org_plan_test", "free"])).code).toBe(0);
      const [org] = await database.sql<Array<{ plan: string }>>`
        select plan from organizations where id = 'org_plan_test'`;
      expect(org?.plan).toBe("free");
    });

    it("refuses unknown accounts (1) and bad input (2)", async () => {
      const unknown = await planCmd(["--email", "nobody@example.com", "pro"]);
      expect(unknown.code).toBe(1);
      expect(unknown.err).toContain("No user with email nobody@example.com");
      expect((await planCmd(["--org", "org_missing", "pro"])).code).toBe(1);
      expect((await planCmd(["--email", "a@example.com", "enterprise"])).code).toBe(2);
      expect((await planCmd(["pro"])).code).toBe(2);
      expect((await planCmd(["--email", "a@example.com", "--org", "o", "pro"])).code).toBe(2);
      const help = await planCmd(["--help"]);
      expect(help.out).toMatch(/^Usage: hookflow admin set-plan/);
    });
  });
});
