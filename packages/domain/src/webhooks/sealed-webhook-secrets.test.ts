import { randomBytes } from "node:crypto";
import { createKeyRing, type Sealed, SealedValueError, sealedKeyId } from "../crypto/key-ring.js";
import {
  openWebhookSecrets,
  resealWebhookSecrets,
  sealWebhookSecrets,
} from "./sealed-webhook-secrets.js";

const SECRETS = {
  ingressToken: "tok_abcdefghijklmnopqrstuvwxyz0123456789",
  signingSecret: "whsec_c2lnbmluZw==",
  incomingSignatureSecret: "incoming",
};

describe("webhook secrets at rest", () => {
  const oldKey = randomBytes(32);
  const newKey = randomBytes(32);
  const ring = createKeyRing({ current: oldKey });

  it("seals every credential for its own row and column, and opens them again", () => {
    const sealed = sealWebhookSecrets(ring, "wh_1", SECRETS);
    expect(Object.values(sealed).join(" ")).not.toMatch(/tok_abc|whsec_|incoming/);
    expect(sealed.tokenHash).toBe(ring.lookupHash(SECRETS.ingressToken));
    expect(openWebhookSecrets(ring, { id: "wh_1", ...sealed })).toEqual(SECRETS);
    // The same ciphertexts in another row do not open.
    expect(() => openWebhookSecrets(ring, { id: "wh_2", ...sealed })).toThrow(SealedValueError);
    // Nor does the signing secret read as the token.
    expect(() =>
      openWebhookSecrets(ring, { id: "wh_1", ...sealed, ingressToken: sealed.signingSecret }),
    ).toThrow(SealedValueError);
  });

  it("keeps a missing incoming secret missing", () => {
    const sealed = sealWebhookSecrets(ring, "wh_1", { ...SECRETS, incomingSignatureSecret: null });
    expect(sealed.incomingSignatureSecret).toBeNull();
    expect(openWebhookSecrets(ring, { id: "wh_1", ...sealed }).incomingSignatureSecret).toBeNull();
  });

  it("reseals values in clear, and leaves a row sealed under the current key alone", () => {
    const found = { id: "wh_1", tokenHash: null, ...SECRETS };
    const sealed = resealWebhookSecrets(ring, found);
    expect(sealed).not.toBeNull();
    if (!sealed) return;
    expect(openWebhookSecrets(ring, { id: "wh_1", ...sealed })).toEqual(SECRETS);
    expect(sealed.tokenHash).toBe(ring.lookupHash(SECRETS.ingressToken));
    expect(resealWebhookSecrets(ring, { id: "wh_1", ...sealed })).toBeNull();
  });

  it("moves a row sealed under a previous key to the current key, hash included", () => {
    const before = sealWebhookSecrets(ring, "wh_1", SECRETS);
    const rotated = createKeyRing({ current: newKey, previous: [oldKey] });
    const after = resealWebhookSecrets(rotated, { id: "wh_1", ...before });
    expect(after).not.toBeNull();
    if (!after) return;
    for (const value of [after.ingressToken, after.signingSecret, after.incomingSignatureSecret]) {
      expect(sealedKeyId(value ?? "")).toBe(rotated.currentKeyId);
    }
    expect(after.tokenHash).toBe(rotated.lookupHash(SECRETS.ingressToken));
    expect(
      openWebhookSecrets(createKeyRing({ current: newKey }), { id: "wh_1", ...after }),
    ).toEqual(SECRETS);
    // One stale column is enough to reseal the row.
    const mixed = { id: "wh_1", ...after, signingSecret: before.signingSecret };
    expect(resealWebhookSecrets(rotated, mixed)).not.toBeNull();
  });

  it("refuses a row sealed under a key the ring does not hold", () => {
    const stranger = createKeyRing({ current: randomBytes(32) });
    const sealed = sealWebhookSecrets(stranger, "wh_1", SECRETS);
    expect(() => resealWebhookSecrets(ring, { id: "wh_1", ...sealed })).toThrow(SealedValueError);
    expect(() =>
      resealWebhookSecrets(ring, {
        id: "wh_1",
        ...sealed,
        ingressToken: "enc:v1:bogus" as Sealed,
      }),
    ).toThrow(SealedValueError);
  });
});
