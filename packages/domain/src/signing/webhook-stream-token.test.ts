import { createStreamToken } from "./stream-token.js";
import { createWebhookStreamToken, verifyWebhookStreamToken } from "./webhook-stream-token.js";

const SECRET = "server-secret";
const NOW_MS = 1_700_000_000_000;
const CLAIMS = { webhookId: "wh_01ABC", userId: "usr_01XYZ", expiresAtMs: NOW_MS + 300_000 };

describe("webhook stream tokens", () => {
  const token = createWebhookStreamToken(SECRET, CLAIMS);

  it("matches a fixed vector (computed independently with Python's hmac)", () => {
    expect(token).toBe(
      "d2hfMDFBQkMudXNyXzAxWFlaLjE3MDAwMDAzMDAwMDA._38ULarcSA4bMS240o9eCz5H9iz3CZWG6Ij-zdh5JCc",
    );
  });

  it("returns the claims until the token expires", () => {
    expect(verifyWebhookStreamToken(SECRET, token, "wh_01ABC", NOW_MS)).toEqual({
      ok: true,
      claims: CLAIMS,
    });
    expect(verifyWebhookStreamToken(SECRET, token, "wh_01ABC", CLAIMS.expiresAtMs + 1)).toEqual({
      ok: false,
      reason: "expired",
    });
  });

  it.each([
    ["another webhook", SECRET, token, "wh_OTHER", "wrong_webhook"],
    ["another secret", "other-secret", token, "wh_01ABC", "mismatch"],
    [
      "an event stream token",
      SECRET,
      createStreamToken(SECRET, "wh_01ABC", NOW_MS),
      "wh_01ABC",
      "mismatch",
    ],
    ["an empty token", SECRET, "", "wh_01ABC", "malformed"],
    ["three parts", SECRET, `${token}.x`, "wh_01ABC", "malformed"],
  ])("rejects %s", (_name, secret, value, webhookId, reason) => {
    expect(verifyWebhookStreamToken(secret, value, webhookId, NOW_MS)).toEqual({
      ok: false,
      reason,
    });
  });
});
