import type { LookupAddress } from "node:dns";
import { guardedLookup, PrivateTargetError } from "./guarded-lookup.js";

function lookupAll(host: string): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => {
    guardedLookup(host, { all: true }, ((error: Error | null, addresses: LookupAddress[]) =>
      error ? reject(error) : resolve(addresses)) as never);
  });
}

function lookupOne(host: string): Promise<string> {
  return new Promise((resolve, reject) => {
    guardedLookup(host, {}, (error, address) => (error ? reject(error) : resolve(String(address))));
  });
}

describe("guardedLookup", () => {
  it("refuses a name that resolves to loopback, in both lookup forms", async () => {
    await expect(lookupAll("localhost")).rejects.toBeInstanceOf(PrivateTargetError);
    await expect(lookupOne("localhost")).rejects.toThrow(/resolves to 127\.0\.0\.1/);
  });

  it("passes DNS errors through", async () => {
    await expect(lookupOne("does-not-exist.invalid")).rejects.toHaveProperty("code");
  });
});
