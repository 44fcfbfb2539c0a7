import { loadConfig } from "@hookflow/config";
import { findUserByEmail } from "@hookflow/db";
import { hashToken } from "@hookflow/domain";
import { ensureBootstrapUser } from "@hookflow/services";
import { createApiKeyFor, createUserWithSession } from "./fixtures.js";
import { type ApiHarness, startApi } from "./harness.js";

const PASSWORD = "correct horse battery staple";

async function signUp(api: ApiHarness, email: string, password = PASSWORD) {
  return api.call("POST", "/api/auth/signup", { body: { email, password, name: "Ada" } });
}

describe("signup", () => {
  let api: ApiHarness;
  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(async () => {
    await api.close();
  });

  it("creates the user and returns it with a working session token", async () => {
    const res = await signUp(api, "Ada@Example.com");
    expect(res.status).toBe(201);
    expect(res.body.user).toEqual({
      id: expect.stringMatching(/^usr_/),
      _id: res.body.user.id,
      email: "ada@example.com",
      name: "Ada",
      plan: "free",
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(JSON.stringify(res.body)).not.toMatch(/password|scrypt/i);
    expect(res.body.token).toMatch(/^hfs_[A-Za-z0-9]{43}$/);

    const me = await api.call("GET", "/api/auth/me", { token: res.body.token });
    expect(me.status).toBe(200);
    expect(me.body).toEqual({ user: res.body.user, memberships: [] });
  });

  it("stores only a scrypt hash of the password and a hash of the session token", async () => {
    const res = await signUp(api, "stored@example.com");
    const user = await findUserByEmail(api.database.db, "stored@example.com");
    expect(user?.passwordHash).toMatch(/^scrypt\$131072\$8\$1\$/);
    expect(user?.passwordHash).not.toContain(PASSWORD);
    const rows = await api.database.sql`
      select token_hash from sessions where user_id = ${res.body.user.id}`;
    expect(rows).toHaveLength(1);
    expect(rows[0]?.token_hash).toBe(hashToken(res.body.token));
  });

  it("answers 409 for an email that is already used, whatever its case", async () => {
    expect((await signUp(api, "taken@example.com")).status).toBe(201);
    const again = await signUp(api, "TAKEN@example.COM");
    expect(again.status).toBe(409);
    expect(again.body).toEqual({
      statusCode: 409,
      message: "email: An account with this email already exists",
      error: "Conflict",
    });
  });

  it.each([
    ["password", { email: "p@example.com", password: "short", name: "P" }],
    ["email", { email: "not-an-email", password: PASSWORD, name: "P" }],
    ["name", { email: "n@example.com", password: PASSWORD }],
    ["password", { email: "m@example.com", name: "M" }],
  ])("answers 400 naming %s when it is invalid or missing", async (field, body) => {
    const res = await api.call("POST", "/api/auth/signup", { body });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(new RegExp(`^${field}: `));
  });

  it("answers 400 for a body that is not JSON", async () => {
    const res = await api.call("POST", "/api/auth/signup", { rawBody: "{nope" });
    expect(res.status).toBe(400);
  });

  it("is refused with 403 when signup is disabled", async () => {
    const closed = await startApi({ ALLOW_SIGNUP: "false" });
    try {
      const res = await signUp(closed, "closed@example.com");
      expect(res.status).toBe(403);
      expect(res.body.message).toBe("Signup is disabled");
      expect(await findUserByEmail(closed.database.db, "closed@example.com")).toBeUndefined();
    } finally {
      await closed.close();
    }
  });
});

describe("login, sessions and logout", () => {
  let api: ApiHarness;
  beforeAll(async () => {
    api = await startApi({ SESSION_TTL_SECONDS: "3600" });
    await signUp(api, "grace@example.com");
  });
  afterAll(async () => {
    await api.close();
  });

  it("opens a session that lasts SESSION_TTL_SECONDS", async () => {
    const before = Date.now();
    const res = await api.call("POST", "/api/auth/login", {
      body: { email: "Grace@Example.com", password: PASSWORD },
    });
    const after = Date.now();
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(["expiresAt", "token"]);
    expect(res.body.token).toMatch(/^hfs_/);
    const expiresAt = Date.parse(res.body.expiresAt);
    expect(expiresAt).toBeGreaterThanOrEqual(before + 3600_000);
    expect(expiresAt).toBeLessThanOrEqual(after + 3600_000);
    const [row] = await api.database.sql`
      select expires_at = ${res.body.expiresAt}::timestamptz as same
      from sessions where token_hash = ${hashToken(res.body.token)}`;
    expect(row?.same).toBe(true);

    const me = await api.call("GET", "/api/auth/me", { token: res.body.token });
    expect(me.status).toBe(200);
    expect(me.body.user.email).toBe("grace@example.com");
  });

  it("answers 401 with the same message for an unknown email and a wrong password", async () => {
    const unknown = await api.call("POST", "/api/auth/login", {
      body: { email: "nobody@example.com", password: PASSWORD },
    });
    const wrong = await api.call("POST", "/api/auth/login", {
      body: { email: "grace@example.com", password: "not the password" },
    });
    expect(unknown.status).toBe(401);
    expect(wrong.status).toBe(401);
    expect(unknown.body).toEqual(wrong.body);
    expect(wrong.body).toEqual({
      statusCode: 401,
      message: "Invalid email or password",
      error: "Unauthorized",
    });
  });

  it("answers 400 naming the missing field", async () => {
    const res = await api.call("POST", "/api/auth/login", { body: { email: "grace@example.com" } });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^password: /);
  });

  it("rejects a session once it has expired", async () => {
    const login = await api.call("POST", "/api/auth/login", {
      body: { email: "grace@example.com", password: PASSWORD },
    });
    const token: string = login.body.token;
    expect((await api.call("GET", "/api/auth/me", { token })).status).toBe(200);
    await api.database.sql`
      update sessions set expires_at = now() - interval '1 second'
      where token_hash = ${hashToken(token)}`;
    const res = await api.call("GET", "/api/auth/me", { token });
    expect(res.status).toBe(401);
    expect(res.body.message).toBe("Invalid or expired session");
  });

  it("rejects a session created already expired and an unknown token", async () => {
    const expired = await createUserWithSession(api.database.db, {
      expiresAt: new Date(Date.now() - 60_000),
    });
    expect((await api.call("GET", "/api/auth/me", { token: expired.token })).status).toBe(401);
    expect((await api.call("GET", "/api/auth/me", { token: "hfs_unknown" })).status).toBe(401);
    expect((await api.call("GET", "/api/auth/me")).status).toBe(401);
  });

  it("logs out: the session is deleted and its token stops working", async () => {
    const login = await api.call("POST", "/api/auth/login", {
      body: { email: "grace@example.com", password: PASSWORD },
    });
    const token: string = login.body.token;
    const res = await api.call("POST", "/api/auth/logout", { token });
    expect(res.status).toBe(204);
    const rows = await api.database.sql`
      select id from sessions where token_hash = ${hashToken(token)}`;
    expect(rows).toHaveLength(0);
    expect((await api.call("GET", "/api/auth/me", { token })).status).toBe(401);
    expect((await api.call("POST", "/api/auth/logout", { token })).status).toBe(401);
  });

  it("refuses logout with an API key (403) and keeps the key working", async () => {
    const user = await createUserWithSession(api.database.db);
    const { key } = await createApiKeyFor(api.database.db, user.userId, {
      scopes: ["events:read"],
    });
    const res = await api.call("POST", "/api/auth/logout", { token: key });
    expect(res.status).toBe(403);
    const me = await api.call("GET", "/api/auth/me", { token: key });
    expect(me.status).toBe(200);
    expect(me.body.user.id).toBe(user.userId);
  });

  it("lists the user's memberships with their roles", async () => {
    const user = await createUserWithSession(api.database.db);
    const org = await api.call("POST", "/api/organizations", {
      token: user.token,
      body: { name: "Acme" },
    });
    const me = await api.call("GET", "/api/auth/me", { token: user.token });
    expect(me.body.memberships).toEqual([
      { organizationId: org.body.id, name: "Acme", role: "owner" },
    ]);
  });
});

describe("bootstrap user", () => {
  let api: ApiHarness;
  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(async () => {
    await api.close();
  });

  it("creates the HOOKFLOW_BOOTSTRAP_EMAIL user once, who can then log in", async () => {
    const config = loadConfig({
      HOOKFLOW_BOOTSTRAP_EMAIL: "Admin@Example.com",
      HOOKFLOW_BOOTSTRAP_PASSWORD: "bootstrap-password",
    });
    const ctx = { db: api.database.db, now: () => new Date() };
    const first = await ensureBootstrapUser(ctx, config);
    expect(first).toEqual({ userId: expect.stringMatching(/^usr_/), created: true });
    const second = await ensureBootstrapUser(ctx, config);
    expect(second).toEqual({ userId: first?.userId, created: false });

    const res = await api.call("POST", "/api/auth/login", {
      body: { email: "admin@example.com", password: "bootstrap-password" },
    });
    expect(res.status).toBe(200);
  });

  it("does nothing without a bootstrap email", async () => {
    const ctx = { db: api.database.db, now: () => new Date() };
    await expect(ensureBootstrapUser(ctx, { bootstrap: null })).resolves.toBeNull();
  });
});
