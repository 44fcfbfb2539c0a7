import { createInvalidatingCache } from "./invalidating-cache.js";

/** A load whose result the test releases when it wants. */
function deferredLoads() {
  const pending: Array<{ key: string; resolve: (v: string) => void; reject: (e: Error) => void }> =
    [];
  const load = (key: string) =>
    new Promise<string>((resolve, reject) => pending.push({ key, resolve, reject }));
  return { load, pending };
}

describe("invalidating cache", () => {
  it("shares one load between concurrent misses and serves the hit afterwards", async () => {
    const { load, pending } = deferredLoads();
    const cache = createInvalidatingCache({ load, ttlMs: 1000 });
    const a = cache.get("k");
    const b = cache.get("k");
    expect(pending).toHaveLength(1);
    pending[0]?.resolve("v1");
    expect(await Promise.all([a, b])).toEqual(["v1", "v1"]);
    expect(await cache.get("k")).toBe("v1");
    expect(pending).toHaveLength(1);
  });

  it("does not keep a load that raced a drop of its key or of everything", async () => {
    const { load, pending } = deferredLoads();
    const cache = createInvalidatingCache({ load, ttlMs: 1000 });
    const first = cache.get("k");
    cache.drop("k");
    pending[0]?.resolve("stale");
    expect(await first).toBe("stale");
    const second = cache.get("k");
    expect(pending).toHaveLength(2);
    cache.drop();
    pending[1]?.resolve("stale too");
    await second;
    void cache.get("k");
    expect(pending).toHaveLength(3);
  });

  it("keeps a load that raced a drop of another key", async () => {
    const { load, pending } = deferredLoads();
    const cache = createInvalidatingCache({ load, ttlMs: 1000 });
    const value = cache.get("k");
    cache.drop("other");
    pending[0]?.resolve("v");
    await value;
    await cache.get("k");
    expect(pending).toHaveLength(1);
  });

  it("forgets failed loads, values it may not keep, and entries past the TTL", async () => {
    let clock = 0;
    const { load, pending } = deferredLoads();
    const cache = createInvalidatingCache({
      load,
      ttlMs: 100,
      keep: (value: string) => value !== "missing",
      now: () => clock,
    });
    const failed = cache.get("k");
    pending[0]?.reject(new Error("db down"));
    await expect(failed).rejects.toThrow("db down");
    const missing = cache.get("k");
    pending[1]?.resolve("missing");
    await missing;
    const kept = cache.get("k");
    pending[2]?.resolve("v");
    await kept;
    await cache.get("k");
    expect(pending).toHaveLength(3);
    clock = 100;
    void cache.get("k");
    expect(pending).toHaveLength(4);
  });
});
