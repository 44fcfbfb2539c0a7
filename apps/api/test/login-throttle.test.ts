import { randomBytes, scryptSync } from "node:crypto";
import { findUserByEmail } from "@hookflow/db";
import { LOGIN_THROTTLE } from "@hookflow/services";
import { send } from "@hookflow/testing";
import { type ApiHarness, startApi } from "./harness.js";

const PASSWORD = "correct horse battery staple";

/** Password checks made so far: attempts that were not throttled. */
async function passwordChecks(api: ApiHarness): Promise<number> {
  const { values } = await api.services.apiMetrics.loginAttempts.get();
  return values
    .filter((v) => v.labels.outcome === "success" || v.labels.outcome === "failure")
    .reduce((sum, v) => sum + v.value, 0);
}

describe("login throttling over real sockets", () => {
  let api: ApiHarness;
  let server: Awaited<ReturnType<ApiHarness["listen"]>>;
  // The documented numbers, but waits of minutes, not seconds: no wait can run out on its own
  // while a test runs, however slow the machine.
  const SLOW = { ...LOGIN_THROTTLE, backoffBaseMs: 60_000 };
  const start = async (env: Record<string, string> = {}, limits = SLOW) => {
    api = await startApi(env, { loginThrottleLimits: limits });
    server = await api.listen();
    const signup = await api.call("POST", "/api/auth/signup", {
      body: { email: "owner@example.com", password: PASSWORD, name: "Owner" },
    });
    expect(signup.status).toBe(201);
  };
  afterEach(async () => {
    await server?.close();
    await api?.close();
  });

  const login = (
    password: string,
    options: { localAddress?: string; forwardedFor?: string; email?: string } = {},
  ) =>
    send(`${server.url}/api/auth/login`, {
      body: { email: options.email ?? "owner@example.com", password },
      localAddress: options.localAddress,
      headers: options.forwardedFor ? { "x-forwarded-for": options.forwardedFor } : {},
    });

  it("checks at most the free tries of 40 parallel wrong guesses, and the owner still logs in from another address", async () => {
    await start();
    // Without TRUSTED_PROXIES a forged X-Forwarded-For changes nothing: every guess is 127.0.0.1.
    const guesses = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        login(`wrong-${i}`, { localAddress: "127.0.0.1", forwardedFor: `198.51.100.${i}` }),
      ),
    );
    const statuses = guesses.map((g) => g.status);
    const checked = statuses.filter((s) => s === 401).length;
    expect(checked).toBeLessThanOrEqual(LOGIN_THROTTLE.pairFree);
    expect(statuses.filter((s) => s === 429)).toHaveLength(40 - checked);
    expect(await passwordChecks(api)).toBe(checked);
    const refused = guesses.find((g) => g.status === 429);
    expect(refused?.body).toEqual({
      statusCode: 429,
      message: "Too many failed login attempts; try again later",
      error: "Too Many Requests",
    });
    expect(Number(refused?.headers["retry-after"])).toBeGreaterThanOrEqual(1);

    // The owner, from another address, with the right password: checked and let in.
    const owner = await login(PASSWORD, { localAddress: "127.0.0.2" });
    expect(owner.status).toBe(200);
    expect(owner.body).toEqual(expect.objectContaining({ token: expect.stringMatching(/^hfs_/) }));
  });

  it("believes X-Forwarded-For from a trusted proxy, so clients behind it are throttled apart", async () => {
    await start({ TRUSTED_PROXIES: "loopback" });
    const attacker = { localAddress: "127.0.0.1", forwardedFor: "198.51.100.7" };
    const guesses = await Promise.all(
      Array.from({ length: 40 }, (_, i) => login(`wrong-${i}`, attacker)),
    );
    expect(guesses.filter((g) => g.status === 401).length).toBeLessThanOrEqual(
      LOGIN_THROTTLE.pairFree,
    );
    // Another client behind the same proxy (same TCP peer) is not affected.
    const owner = await login(PASSWORD, {
      localAddress: "127.0.0.1",
      forwardedFor: "203.0.113.50",
    });
    expect(owner.status).toBe(200);
    const keys = await api.services.redis.keys(`${api.services.config.redisPrefix}:login:*`);
    expect(keys.some((key) => key.endsWith(":198.51.100.7"))).toBe(true);
    expect(keys.some((key) => key.includes("owner@example.com"))).toBe(false);
  });

  it("backs off exponentially past the free tries instead of locking the account", async () => {
    await start();
    const pairKey = async () => {
      const [key] = await api.services.redis.keys(
        `${api.services.config.redisPrefix}:login:pair:*`,
      );
      if (!key) throw new Error("no pair key");
      return key;
    };
    /** Stands for the wait running out. */
    const endWait = async () => api.services.redis.hset(await pairKey(), "until", "0");

    for (let i = 0; i < LOGIN_THROTTLE.pairFree; i++) {
      expect((await login(`wrong-${i}`)).status).toBe(401);
    }
    const first = await login("wrong-a");
    expect(first.status).toBe(429);
    expect(Number(first.headers["retry-after"])).toBeGreaterThan(55);
    expect(Number(first.headers["retry-after"])).toBeLessThanOrEqual(60);
    await endWait();
    expect((await login("wrong-b")).status).toBe(401);
    const second = await login("wrong-c");
    expect(second.status).toBe(429);
    expect(Number(second.headers["retry-after"])).toBeGreaterThan(115);
    expect(Number(second.headers["retry-after"])).toBeLessThanOrEqual(120);
    // The owner's right password waits like any other try from this address...
    expect((await login(PASSWORD)).status).toBe(429);
    await endWait();
    // ...and once the wait is over it works, and success forgives the pair.
    expect((await login(PASSWORD)).status).toBe(200);
    for (let i = 0; i < LOGIN_THROTTLE.pairFree; i++) {
      expect((await login(`again-${i}`)).status).toBe(401);
    }
  });

  it("stops one address spraying many accounts, and only that address", async () => {
    await start({}, { ...SLOW, addressLimit: 4 });
    for (let i = 0; i < 4; i++) {
      const res = await login("wrong", { email: `guess-${i}@example.com` });
      expect(res.status).toBe(401);
    }
    const blocked = await login(PASSWORD);
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers["retry-after"])).toBeGreaterThan(0);
    expect(Number(blocked.headers["retry-after"])).toBeLessThanOrEqual(15 * 60);
    expect((await login(PASSWORD, { localAddress: "127.0.0.2" })).status).toBe(200);
  });

  it("past the account's ceiling gives each new address one free try, never none", async () => {
    await start({ TRUSTED_PROXIES: "loopback" }, { ...SLOW, accountCeiling: 3 });
    for (let i = 0; i < 3; i++) {
      expect((await login("wrong", { forwardedFor: `198.51.100.${i}` })).status).toBe(401);
    }
    // A fresh address: its first try is checked at once, the next one waits.
    expect((await login("wrong", { forwardedFor: "198.51.100.99" })).status).toBe(401);
    expect((await login("wrong", { forwardedFor: "198.51.100.99" })).status).toBe(429);
    // The owner from yet another address gets in on the first try.
    expect((await login(PASSWORD, { forwardedFor: "203.0.113.1" })).status).toBe(200);
  });
});

describe("password hashes", () => {
  let api: ApiHarness;
  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(async () => {
    await api.close();
  });

  it("stores new passwords with scrypt N=2^17, r=8, p=1", async () => {
    await api.call("POST", "/api/auth/signup", {
      body: { email: "fresh@example.com", password: PASSWORD, name: "Fresh" },
    });
    const user = await findUserByEmail(api.database.db, "fresh@example.com");
    expect(user?.passwordHash).toMatch(/^scrypt\$131072\$8\$1\$/);
  });

  it("logs in a user whose hash has the old parameters and stores a rehash at today's", async () => {
    const salt = randomBytes(16);
    const key = scryptSync(PASSWORD, salt, 64, { N: 16384, r: 8, p: 1 });
    const oldHash = `scrypt$16384$8$1$${salt.toString("base64")}$${key.toString("base64")}`;
    await api.database.sql`
      insert into users (id, email, name, password_hash)
      values ('usr_legacy', 'legacy@example.com', 'Legacy', ${oldHash})`;

    const first = await api.call("POST", "/api/auth/login", {
      body: { email: "legacy@example.com", password: PASSWORD },
    });
    expect(first.status).toBe(200);
    const user = await findUserByEmail(api.database.db, "legacy@example.com");
    expect(user?.passwordHash).toMatch(/^scrypt\$131072\$8\$1\$/);
    expect(user?.passwordHash).not.toBe(oldHash);

    const again = await api.call("POST", "/api/auth/login", {
      body: { email: "legacy@example.com", password: PASSWORD },
    });
    expect(again.status).toBe(200);
    const wrong = await api.call("POST", "/api/auth/login", {
      body: { email: "legacy@example.com", password: "not the password" },
    });
    expect(wrong.status).toBe(401);
  });
});
