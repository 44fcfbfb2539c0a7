import fc from "fast-check";
import { type IngressHarness, startIngress } from "./harness.js";

/**
 * Random and hostile requests at the public ingress: every answer is a stored event (202, or 200
 * for a duplicate) or a 4xx in the error shape; never a 5xx, and nothing stored for a refusal.
 */
const MAX_BYTES = 4096;

/** Bodies a sender might post: JSON of every kind, broken JSON, odd bytes, big and deep text. */
const body = fc.oneof(
  fc.jsonValue().map((value) => JSON.stringify(value)),
  fc.string(),
  fc.string({ unit: "binary" }),
  fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes).toString("latin1")),
  fc.nat({ max: 3000 }).map((depth) => `${"[".repeat(depth)}${"]".repeat(depth)}`),
  fc.nat({ max: 8000 }).map((size) => JSON.stringify({ pad: "x".repeat(size) })),
  fc.constantFrom('{"a":', "{}}", "\u0000", '"\\ud800"', "1e999", "-", "NaN", ""),
);
const headerName = fc.constantFrom(
  "content-type",
  "x-webhook-signature",
  "x-hub-signature-256",
  "stripe-signature",
  "idempotency-key",
  "webhook-id",
  "x-forwarded-for",
  "x-custom",
);
const headerValue = fc.stringMatching(/^[\x20-\x7e]{0,80}$/);
const headers = fc.dictionary(headerName, headerValue, { maxKeys: 4 });

function isErrorShape(status: number, body: unknown): boolean {
  if (typeof body !== "object" || body === null) return false;
  const error = body as Record<string, unknown>;
  return (
    error.statusCode === status &&
    typeof error.message === "string" &&
    typeof error.error === "string"
  );
}

describe("ingress, properties", () => {
  let h: IngressHarness;
  let plain: { id: string; token: string };
  let signed: { id: string; token: string };
  let deduplicated: { id: string; token: string };

  beforeAll(async () => {
    h = await startIngress({ MAX_PAYLOAD_BYTES: String(MAX_BYTES) });
    plain = await h.createWebhook();
    signed = await h.createWebhook({
      incomingSignatureType: "github",
      incomingSignatureSecret: "property-secret",
    });
    deduplicated = await h.createWebhook({ dedupEnabled: true });
  });
  afterAll(async () => {
    await h.close();
  });

  it("answers any request with a stored event or a 4xx in the error shape, never a 5xx", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("plain", "signed", "deduplicated", "unknown"),
        body,
        headers,
        async (which, text, sent) => {
          const hook =
            which === "plain"
              ? plain
              : which === "signed"
                ? signed
                : which === "deduplicated"
                  ? deduplicated
                  : { id: "none", token: "no-such-token-0123456789" };
          const res = await h.post(hook.token, text, sent);
          if (res.status === 202 || res.status === 200) {
            const eventId = res.body.eventId ?? res.body.originalEventId;
            const [row] = await h.database.sql`select id, body from events where id = ${eventId}`;
            expect(row?.id).toBe(eventId);
            return;
          }
          expect(res.status).toBeGreaterThanOrEqual(400);
          expect(res.status).toBeLessThan(500);
          expect(isErrorShape(res.status, res.body)).toBe(true);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("stores exactly the JSON bodies it accepts on a plain webhook", async () => {
    // Compact and indented, any text in strings (escapes, surrogates, NUL): objects and arrays
    // travel into the batch's JSON as they are, the rest quoted.
    const json = fc.oneof(fc.jsonValue(), fc.jsonValue({ stringUnit: "binary" }));
    await fc.assert(
      fc.asyncProperty(json, fc.boolean(), async (value, indented) => {
        const text = indented ? JSON.stringify(value, null, 2) : JSON.stringify(value);
        const res = await h.post(plain.token, text);
        if (Buffer.byteLength(text) > MAX_BYTES) {
          expect(res.status).toBe(413);
          return;
        }
        expect(res.status).toBe(202);
        const [row] = await h.database.sql`select body from events where id = ${res.body.eventId}`;
        expect(row?.body).toBe(text);
      }),
      { numRuns: 100 },
    );
  });
});
