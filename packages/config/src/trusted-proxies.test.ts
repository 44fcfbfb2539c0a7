import { ConfigError, loadConfig } from "./load-config.js";
import { parseTrustedProxies } from "./trusted-proxies.js";

describe("TRUSTED_PROXIES", () => {
  it("trusts nothing by default", () => {
    expect(loadConfig({}).trustedProxies).toEqual([]);
  });

  it("reads addresses, CIDRs and presets", () => {
    const parsed = parseTrustedProxies(" loopback, 10.1.2.3 ,172.18.0.0/16, 2001:db8::/32");
    expect(parsed).toEqual({
      ok: true,
      networks: [
        { address: "127.0.0.0", prefix: 8, family: "ipv4" },
        { address: "::1", prefix: 128, family: "ipv6" },
        { address: "10.1.2.3", prefix: 32, family: "ipv4" },
        { address: "172.18.0.0", prefix: 16, family: "ipv4" },
        { address: "2001:db8::", prefix: 32, family: "ipv6" },
      ],
    });
    expect(loadConfig({ TRUSTED_PROXIES: "private" }).trustedProxies).toHaveLength(4);
  });

  it.each(["10.0.0.0/33", "example.com", "10.0.0.0/8/1", "*", "::1/129"])(
    "refuses %j and names the variable",
    (value) => {
      expect(() => loadConfig({ TRUSTED_PROXIES: value })).toThrow(ConfigError);
      expect(() => loadConfig({ TRUSTED_PROXIES: value })).toThrow(/TRUSTED_PROXIES/);
    },
  );
});

describe("API_RATE_LIMIT_PER_MINUTE", () => {
  it("defaults to 600 and accepts 0 (off)", () => {
    expect(loadConfig({}).apiRateLimitPerMinute).toBe(600);
    expect(loadConfig({ API_RATE_LIMIT_PER_MINUTE: "0" }).apiRateLimitPerMinute).toBe(0);
    expect(() => loadConfig({ API_RATE_LIMIT_PER_MINUTE: "-1" })).toThrow(/API_RATE_LIMIT/);
  });
});
