import { newId, randomToken } from "./ids.js";

describe("newId", () => {
  it("prefixes the id with its type", () => {
    expect(newId("event")).toMatch(/^evt_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(newId("webhook")).toMatch(/^wh_/);
  });

  it("never repeats, across many refills of its random pool", () => {
    const ids = new Set(Array.from({ length: 5_000 }, () => newId("event", 1_700_000_000_000)));
    expect(ids.size).toBe(5_000);
  });

  it("sorts ids by creation time", () => {
    const a = newId("event", 1_700_000_000_000);
    const b = newId("event", 1_700_000_000_001);
    expect(a < b).toBe(true);
  });
});

describe("randomToken", () => {
  it("returns url-safe characters of the asked length", () => {
    const token = randomToken(40);
    expect(token).toHaveLength(40);
    expect(token).toMatch(/^[A-Za-z0-9]+$/);
    expect(randomToken(40)).not.toEqual(token);
  });
});
