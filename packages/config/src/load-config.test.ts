import { ConfigError, loadConfig } from "./load-config.js";

describe("loadConfig", () => {
  it("applies the documented defaults", () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.databaseUrl).toBe("postgres://postgres@127.0.0.1:5432/hookflow");
    expect(config.redisUrl).toBe("redis://127.0.0.1:6379");
    expect(config.redisPrefix).toBe("hookflow");
    expect(config.publicBaseUrl).toBe("http://localhost:3000");
    expect(config.sessionTtlSeconds).toBe(604800);
    expect(config.maxPayloadBytes).toBe(1048576);
    expect(config.allowSignup).toBe(true);
    expect(config.allowPrivateTargets).toBe(true);
    expect(config.encryptionKey).toHaveLength(32);
  });

  it("generates a secret in development and says so", () => {
    const config = loadConfig({});
    expect(config.secret.length).toBeGreaterThanOrEqual(32);
    expect(config.warnings.join(" ")).toMatch(/HOOKFLOW_SECRET/);
  });

  it("refuses to start in production without a secret", () => {
    expect(() => loadConfig({ NODE_ENV: "production" })).toThrow(ConfigError);
  });

  it("defaults private targets off in production", () => {
    const config = loadConfig({
      NODE_ENV: "production",
      HOOKFLOW_SECRET: "x".repeat(40),
      HOOKFLOW_ENCRYPTION_KEY: "a".repeat(64),
    });
    expect(config.allowPrivateTargets).toBe(false);
  });

  it("names every invalid variable", () => {
    expect(() => loadConfig({ PORT: "abc", HOOKFLOW_REDIS_PREFIX: "a b" })).toThrow(
      /PORT.*HOOKFLOW_REDIS_PREFIX/,
    );
  });

  it("parses booleans and strips the trailing slash of the public url", () => {
    const config = loadConfig({
      ALLOW_SIGNUP: "false",
      PUBLIC_BASE_URL: "https://hooks.example.com/",
    });
    expect(config.allowSignup).toBe(false);
    expect(config.publicBaseUrl).toBe("https://hooks.example.com");
  });
});
