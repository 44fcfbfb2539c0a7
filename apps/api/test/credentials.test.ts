import { credentialSealContext, type Sealed, sealedKeyId } from "@hookflow/domain";
import { createApiKeyFor, createOrganizationWith, createUserWithSession } from "./fixtures.js";
import { type ApiHarness, startApi } from "./harness.js";

const SECRETS = {
  google_oauth: {
    accessToken: "ya29.secret-access-token",
    refreshToken: "1//secret-refresh-token",
    clientId: "client-id.apps.googleusercontent.com",
    clientSecret: "secret-client-secret",
    expiresAt: "2026-11-26T12:00:00Z",
  },
  smtp: {
    host: "smtp.example.com",
    port: 465,
    secure: true,
    username: "mailer",
    password: "secret-smtp-password",
  },
  bearer: { token: "secret-bearer-token" },
  basic: { username: "alice", password: "secret-basic-password" },
  mongodb: {
    connectionUri: "mongodb://app:secret-mongo-password@db.example.com:27017/shop?authSource=admin",
  },
} as const;

const PREVIEWS = {
  google_oauth: { expiresAt: "2026-11-26T12:00:00Z", hasRefreshToken: true, scope: null },
  smtp: { host: "smtp.example.com", port: 465, secure: true, username: "mailer" },
  bearer: {},
  basic: { username: "alice" },
  mongodb: { connectionUri: "mongodb://app:****@db.example.com:27017/shop" },
} as const;

describe("credentials", () => {
  let api: ApiHarness;
  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(async () => {
    await api.close();
  });
  const user = () => createUserWithSession(api.database.db);

  it.each(Object.keys(SECRETS) as Array<keyof typeof SECRETS>)(
    "stores a %s credential sealed, and no route ever returns its data",
    async (type) => {
      const alice = await user();
      const created = await api.call("POST", "/api/credentials", {
        token: alice.token,
        body: { name: `my ${type}`, type, data: SECRETS[type] },
      });
      expect(created.status).toBe(201);
      expect(created.body).toEqual({
        id: expect.stringMatching(/^cred_/),
        _id: created.body.id,
        name: `my ${type}`,
        type,
        preview: PREVIEWS[type],
        ownerId: alice.userId,
        organizationId: null,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      const id = created.body.id as string;
      const reads = [
        created,
        await api.call("GET", `/api/credentials/${id}`, { token: alice.token }),
        await api.call("GET", "/api/credentials", { token: alice.token }),
        await api.call("PATCH", `/api/credentials/${id}`, {
          token: alice.token,
          body: { name: "renamed" },
        }),
      ];
      for (const read of reads) {
        expect(read.status).toBeLessThan(300);
        expect(JSON.stringify(read.body)).not.toMatch(/secret/);
      }
      const [row] = await api.database.sql`select * from credentials where id = ${id}`;
      expect(JSON.stringify(row)).not.toMatch(/secret/);
      expect(sealedKeyId(row?.data)).toBe(api.services.keyRing.currentKeyId);
      const opened = api.services.keyRing.open(row?.data as Sealed, credentialSealContext(id));
      expect(JSON.parse(opened)).toMatchObject(SECRETS[type]);
    },
  );

  it("replaces the data whole on PATCH, checked against the credential's type", async () => {
    const alice = await user();
    const { body } = await api.call("POST", "/api/credentials", {
      token: alice.token,
      body: { name: "svc", type: "basic", data: SECRETS.basic },
    });
    const bad = await api.call("PATCH", `/api/credentials/${body.id}`, {
      token: alice.token,
      body: { data: { token: "x" } },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^data\.username: /);
    const ok = await api.call("PATCH", `/api/credentials/${body.id}`, {
      token: alice.token,
      body: { data: { username: "bob", password: "secret-2" } },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.preview).toEqual({ username: "bob" });
    const [row] = await api.database.sql`select data from credentials where id = ${body.id}`;
    const opened = api.services.keyRing.open(row?.data as Sealed, credentialSealContext(body.id));
    expect(JSON.parse(opened)).toEqual({ username: "bob", password: "secret-2" });
  });

  it.each([
    ["an unknown type", { type: "ftp", data: {} }, /^type: /],
    ["a bearer without token", { type: "bearer", data: {} }, /^data\.token: /],
    [
      "a mongodb URI of another scheme",
      { type: "mongodb", data: { connectionUri: "http://x" } },
      /^data\.connectionUri: /,
    ],
    [
      "a basic user with a colon",
      { type: "basic", data: { username: "a:b", password: "p" } },
      /^data\.username: /,
    ],
    [
      "google_oauth without accessToken",
      { type: "google_oauth", data: {} },
      /^data\.accessToken: /,
    ],
    ["data that is not an object", { type: "bearer", data: "token" }, /^data: /],
  ])("refuses %s with 400 naming the field", async (_label, body, message) => {
    const alice = await user();
    const res = await api.call("POST", "/api/credentials", {
      token: alice.token,
      body: { name: "x", ...body },
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(message);
  });

  it("never echoes a refused secret in the error", async () => {
    const alice = await user();
    const res = await api.call("POST", "/api/credentials", {
      token: alice.token,
      body: { name: "x", type: "mongodb", data: { connectionUri: "postgres://u:topsecret@h" } },
    });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).not.toMatch(/topsecret/);
  });

  it("keeps credentials to their owner: 403 for another user, 404 unknown, lists per context", async () => {
    const alice = await user();
    const mallory = await user();
    const { body } = await api.call("POST", "/api/credentials", {
      token: alice.token,
      body: { name: "a", type: "bearer", data: SECRETS.bearer },
    });
    for (const [method, extra] of [
      ["GET", {}],
      ["PATCH", { body: { name: "x" } }],
      ["DELETE", {}],
    ] as const) {
      const res = await api.call(method, `/api/credentials/${body.id}`, {
        token: mallory.token,
        ...extra,
      });
      expect(res.status).toBe(403);
    }
    const list = await api.call("GET", "/api/credentials", { token: mallory.token });
    expect(list.body).toEqual([]);
    expect(
      (await api.call("GET", "/api/credentials/cred_unknown", { token: alice.token })).status,
    ).toBe(404);
    expect((await api.call("GET", "/api/credentials")).status).toBe(401);

    const org = await createOrganizationWith(api.database.db, [
      { userId: alice.userId, role: "owner" },
      { userId: mallory.userId, role: "member" },
    ]);
    const orgCred = await api.call("POST", "/api/credentials", {
      token: alice.token,
      headers: { "x-organization-id": org },
      body: { name: "shared", type: "bearer", data: SECRETS.bearer },
    });
    expect(orgCred.body.organizationId).toBe(org);
    const seen = await api.call("GET", `/api/credentials/${orgCred.body.id}`, {
      token: mallory.token,
    });
    expect(seen.status).toBe(200);
  });

  it("needs canvas:read to read and canvas:write to write", async () => {
    const alice = await user();
    const reader = await createApiKeyFor(api.database.db, alice.userId, {
      scopes: ["canvas:read"],
    });
    const none = await createApiKeyFor(api.database.db, alice.userId, { scopes: ["events:read"] });
    const body = { name: "k", type: "bearer", data: SECRETS.bearer };
    expect((await api.call("POST", "/api/credentials", { token: reader.key, body })).status).toBe(
      403,
    );
    expect((await api.call("GET", "/api/credentials", { token: reader.key })).status).toBe(200);
    expect((await api.call("GET", "/api/credentials", { token: none.key })).status).toBe(403);
  });

  it("deletes a credential: 204, then 404", async () => {
    const alice = await user();
    const { body } = await api.call("POST", "/api/credentials", {
      token: alice.token,
      body: { name: "a", type: "bearer", data: SECRETS.bearer },
    });
    expect(
      (await api.call("DELETE", `/api/credentials/${body.id}`, { token: alice.token })).status,
    ).toBe(204);
    expect(
      (await api.call("GET", `/api/credentials/${body.id}`, { token: alice.token })).status,
    ).toBe(404);
  });
});
