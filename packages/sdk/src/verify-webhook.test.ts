import { signWebhook } from "./sign-webhook.js";
import { verifyWebhook } from "./verify-webhook.js";

// Standard Webhooks' published example, and a fixed X-Hookflow-Signature vector of
// packages/domain (signHookflow("whsec_test", 1700000000000, '{"a":1}')).
const STANDARD = {
  secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
  headers: {
    "webhook-id": "msg_p5jXN8AQM9LWM0D4loKWxJek",
    "webhook-timestamp": "1614265330",
    "webhook-signature": "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
  },
  body: '{"test": 2432232314}',
  nowMs: 1_614_265_330_000,
};
const HOOKFLOW = {
  secret: "whsec_test",
  header: "t=1700000000000,v1=33284ebef248a1f463f81384bfb39351b857cb4897c654b820611536fa084f1e",
  body: '{"a":1}',
  nowMs: 1_700_000_000_000,
};

const hookflow = (header: string, body = HOOKFLOW.body, nowMs = HOOKFLOW.nowMs) =>
  verifyWebhook({ "X-Hookflow-Signature": header }, body, HOOKFLOW.secret, { now: () => nowMs });

describe("verifyWebhook", () => {
  it("accepts the fixed X-Hookflow-Signature vector, from a Headers object too", async () => {
    expect(await hookflow(HOOKFLOW.header)).toEqual({
      ok: true,
      scheme: "hookflow",
      timestamp: new Date(HOOKFLOW.nowMs),
      eventId: undefined,
    });
    const headers = new Headers({
      "x-hookflow-signature": HOOKFLOW.header,
      "x-hookflow-event-id": "evt_1",
    });
    const bytes = new TextEncoder().encode(HOOKFLOW.body);
    expect(
      await verifyWebhook(headers, bytes, HOOKFLOW.secret, { now: () => HOOKFLOW.nowMs }),
    ).toMatchObject({ ok: true, eventId: "evt_1" });
  });

  it("accepts Standard Webhooks' published example", async () => {
    expect(
      await verifyWebhook(STANDARD.headers, STANDARD.body, STANDARD.secret, {
        now: () => STANDARD.nowMs,
      }),
    ).toMatchObject({
      ok: true,
      scheme: "standard-webhooks",
      eventId: "msg_p5jXN8AQM9LWM0D4loKWxJek",
    });
  });

  it.each([
    ["a changed body", HOOKFLOW.header, '{"a":2}', HOOKFLOW.nowMs, "mismatch"],
    ["a timestamp 301 s old", HOOKFLOW.header, HOOKFLOW.body, HOOKFLOW.nowMs + 301_000, "expired"],
    ["a timestamp 301 s ahead", HOOKFLOW.header, HOOKFLOW.body, HOOKFLOW.nowMs - 301_000, "future"],
    ["no v1", "t=1700000000000", HOOKFLOW.body, HOOKFLOW.nowMs, "malformed"],
    ["a v1 that is not hex", "t=1700000000000,v1=xyz", HOOKFLOW.body, HOOKFLOW.nowMs, "malformed"],
  ])("rejects %s", async (_name, header, body, nowMs, reason) => {
    expect(await hookflow(header, body, nowMs)).toEqual({ ok: false, reason });
  });

  it("accepts a timestamp 300 s old or ahead, and honours toleranceSeconds", async () => {
    expect(await hookflow(HOOKFLOW.header, HOOKFLOW.body, HOOKFLOW.nowMs + 300_000)).toMatchObject({
      ok: true,
    });
    expect(await hookflow(HOOKFLOW.header, HOOKFLOW.body, HOOKFLOW.nowMs - 300_000)).toMatchObject({
      ok: true,
    });
    expect(
      await verifyWebhook(
        { "x-hookflow-signature": HOOKFLOW.header },
        HOOKFLOW.body,
        HOOKFLOW.secret,
        {
          now: () => HOOKFLOW.nowMs + 61_000,
          toleranceSeconds: 60,
        },
      ),
    ).toEqual({ ok: false, reason: "expired" });
  });

  it("rejects Standard Webhooks headers that are stale, ahead, tampered or missing", async () => {
    const check = (headers: Record<string, string>, nowMs = STANDARD.nowMs, body = STANDARD.body) =>
      verifyWebhook(headers, body, STANDARD.secret, { now: () => nowMs });
    expect(await check(STANDARD.headers, STANDARD.nowMs + 301_000)).toEqual({
      ok: false,
      reason: "expired",
    });
    expect(await check(STANDARD.headers, STANDARD.nowMs - 301_000)).toEqual({
      ok: false,
      reason: "future",
    });
    expect(await check(STANDARD.headers, STANDARD.nowMs, '{"test": 2432232315}')).toEqual({
      ok: false,
      reason: "mismatch",
    });
    expect(await check({ ...STANDARD.headers, "webhook-id": "msg_other" })).toEqual({
      ok: false,
      reason: "mismatch",
    });
    const { "webhook-id": _id, ...noId } = STANDARD.headers;
    expect(await check(noId)).toEqual({ ok: false, reason: "missing_header" });
    expect(await verifyWebhook({}, "{}", STANDARD.secret)).toEqual({
      ok: false,
      reason: "missing_header",
    });
  });

  it("passes when any of several signatures matches (secret rotation)", async () => {
    const other = "v1,AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=";
    const headers = {
      ...STANDARD.headers,
      "webhook-signature": `${other} ${STANDARD.headers["webhook-signature"]}`,
    };
    expect(
      await verifyWebhook(headers, STANDARD.body, STANDARD.secret, { now: () => STANDARD.nowMs }),
    ).toMatchObject({ ok: true });
  });
});

describe("signWebhook", () => {
  it("reproduces the fixed vectors, and verifyWebhook accepts what it signs", async () => {
    const headers = await signWebhook(HOOKFLOW.secret, HOOKFLOW.body, {
      eventId: "evt_1",
      timestampMs: HOOKFLOW.nowMs,
    });
    expect(headers["X-Hookflow-Signature"]).toBe(HOOKFLOW.header);
    const standard = await signWebhook(STANDARD.secret, STANDARD.body, {
      eventId: STANDARD.headers["webhook-id"],
      timestampMs: STANDARD.nowMs,
    });
    expect(standard["webhook-signature"]).toBe(STANDARD.headers["webhook-signature"]);
    expect(
      await verifyWebhook(standard, STANDARD.body, STANDARD.secret, { now: () => STANDARD.nowMs }),
    ).toMatchObject({ ok: true, scheme: "hookflow", eventId: STANDARD.headers["webhook-id"] });
  });
});
