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
    expect(config.encryptionKeys.current).toHaveLength(32);
    expect(config.encryptionKeys.previous).toEqual([]);
    expect(config.streamMaxPerToken).toBe(5);
    expect(config.streamMaxPerProcess).toBe(10_000);
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

  it("serves metrics on 127.0.0.1:9464 by default, elsewhere or not at all when told", () => {
    expect(loadConfig({}).metrics).toEqual({ port: 9464, host: "127.0.0.1", token: null });
    expect(
      loadConfig({ METRICS_PORT: "0", METRICS_HOST: "0.0.0.0", METRICS_TOKEN: "t".repeat(16) })
        .metrics,
    ).toEqual({ port: 0, host: "0.0.0.0", token: "t".repeat(16) });
    expect(loadConfig({ METRICS_PORT: "off" }).metrics).toBeNull();
    expect(() => loadConfig({ METRICS_PORT: "none" })).toThrow(/METRICS_PORT/);
    expect(() => loadConfig({ METRICS_TOKEN: "short" })).toThrow(/METRICS_TOKEN/);
  });

  it("keeps one development key across processes when neither key nor secret is set", () => {
    const a = loadConfig({});
    const b = loadConfig({});
    expect(a.secret).not.toBe(b.secret);
    expect(a.encryptionKeys.current.equals(b.encryptionKeys.current)).toBe(true);
    expect(a.warnings.join(" ")).toMatch(/fixed, publicly known development key/);
    const derived = loadConfig({ HOOKFLOW_SECRET: "s".repeat(40) });
    expect(derived.encryptionKeys.current.equals(a.encryptionKeys.current)).toBe(false);
  });

  it("reads the current encryption key and the previous ones, hex or base64", () => {
    const hex = "ab".repeat(32);
    const base64 = Buffer.alloc(32, 7).toString("base64");
    const config = loadConfig({
      HOOKFLOW_ENCRYPTION_KEY: hex,
      HOOKFLOW_ENCRYPTION_KEYS_PREVIOUS: ` ${base64} ,${"cd".repeat(32)},`,
    });
    expect(config.encryptionKeys.current.toString("hex")).toBe(hex);
    expect(config.encryptionKeys.previous.map((key) => key.toString("hex"))).toEqual([
      "07".repeat(32),
      "cd".repeat(32),
    ]);
    expect(() => loadConfig({ HOOKFLOW_ENCRYPTION_KEYS_PREVIOUS: "abc" })).toThrow(
      /HOOKFLOW_ENCRYPTION_KEYS_PREVIOUS/,
    );
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

describe("mail settings", () => {
  it("keeps mail in the outbox without SMTP_URL and derives the sender from the public host", () => {
    const config = loadConfig({ PUBLIC_BASE_URL: "https://hooks.example.com" });
    expect(config.smtpUrl).toBeNull();
    expect(config.mailFrom).toBe("Hookflow <hookflow@hooks.example.com>");
  });

  it("treats an empty SMTP_URL as unset", () => {
    expect(loadConfig({ SMTP_URL: "", MAIL_FROM: "" }).smtpUrl).toBeNull();
  });

  it("reads an SMTP server and a sender", () => {
    const config = loadConfig({
      SMTP_URL: "smtps://user:pass@mail.example.com:465",
      MAIL_FROM: "Ops <ops@example.com>",
    });
    expect(config.smtpUrl).toBe("smtps://user:pass@mail.example.com:465");
    expect(config.mailFrom).toBe("Ops <ops@example.com>");
  });

  it.each([
    ["SMTP_URL", "https://mail.example.com"],
    ["MAIL_FROM", "no-address-here"],
    ["MAIL_FROM", "a@b.com\r\nBcc: x@y.com"],
  ])("refuses %s=%j", (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(name));
  });
});
