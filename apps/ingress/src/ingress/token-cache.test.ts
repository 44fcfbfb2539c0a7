import { createTokenCache } from "./token-cache.js";

function setup(maxEntries = 10) {
  let clock = 0;
  const loads: string[] = [];
  const rows = new Map<string, { id: string; v: number }>([
    ["t1", { id: "wh_1", v: 1 }],
    ["t2", { id: "wh_2", v: 1 }],
    ["t3", { id: "wh_3", v: 1 }],
  ]);
  const cache = createTokenCache({
    load: async (token) => {
      loads.push(token);
      return rows.get(token) ?? null;
    },
    ttlMs: 1000,
    maxEntries,
    now: () => clock,
  });
  return { cache, loads, rows, advance: (ms: number) => (clock += ms) };
}

describe("createTokenCache", () => {
  it("serves a cached answer until its TTL passes", async () => {
    const { cache, loads, advance } = setup();
    await cache.get("t1");
    await cache.get("t1");
    advance(999);
    await cache.get("t1");
    expect(loads).toEqual(["t1"]);
    advance(1);
    await cache.get("t1");
    expect(loads).toEqual(["t1", "t1"]);
  });

  it("shares one load between concurrent lookups of a token", async () => {
    const { cache, loads } = setup();
    const results = await Promise.all([cache.get("t1"), cache.get("t1"), cache.get("t1")]);
    expect(results.map((r) => r?.id)).toEqual(["wh_1", "wh_1", "wh_1"]);
    expect(loads).toEqual(["t1"]);
  });

  it("drops every entry of a webhook on invalidation, and only those", async () => {
    const { cache, loads } = setup();
    await Promise.all([cache.get("t1"), cache.get("t2"), cache.get("unknown")]);
    cache.invalidate("wh_1");
    await Promise.all([cache.get("t1"), cache.get("t2"), cache.get("unknown")]);
    expect(loads.sort()).toEqual(["t1", "t1", "t2", "unknown"]);
  });

  it("does not cache an answer loaded before an invalidation that arrived during the load", async () => {
    const { cache, loads, rows } = setup();
    const inFlight = cache.get("t1");
    rows.set("t1", { id: "wh_1", v: 2 });
    cache.invalidate("wh_1");
    expect((await inFlight)?.v).toBe(1);
    expect((await cache.get("t1"))?.v).toBe(2);
    expect(loads).toEqual(["t1", "t1"]);
  });

  it("evicts the oldest entry past its size bound", async () => {
    const { cache, loads } = setup(2);
    await cache.get("t1");
    await cache.get("t2");
    await cache.get("t3");
    expect(cache.size()).toBe(2);
    await cache.get("t1");
    expect(loads).toEqual(["t1", "t2", "t3", "t1"]);
  });

  it("caches nothing while caching is off", async () => {
    const { cache, loads } = setup();
    cache.setCaching(false);
    await cache.get("t1");
    await cache.get("t1");
    expect(loads).toEqual(["t1", "t1"]);
  });
});
