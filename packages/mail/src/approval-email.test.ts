import { buildApprovalEmail } from "./approval-email.js";

const base = {
  nodeName: "Large orders",
  webhookName: "Shop",
  eventId: "evt_1",
  payloadPreview: '{\n  "total": 990\n}',
  approveUrl: "https://hooks.example.com/api/approvals/AAA.bbb",
  rejectUrl: "https://hooks.example.com/api/approvals/CCC.ddd",
  timeoutAt: new Date("2024-05-01T13:00:00.000Z"),
};

describe("buildApprovalEmail", () => {
  it("names the gate, webhook and event in a one-line subject", () => {
    const email = buildApprovalEmail({ ...base, webhookName: "Shop\r\nBcc: x@example.com" });
    expect(email.subject).toBe(
      "Approval needed: Shop Bcc: x@example.com event evt_1 at Large orders",
    );
  });

  it("carries both links and the deadline in the text and html parts", () => {
    const email = buildApprovalEmail({ ...base, autoActionOnTimeout: "reject" });
    for (const part of [email.text, email.html]) {
      expect(part).toContain(base.approveUrl);
      expect(part).toContain(base.rejectUrl);
      expect(part).toContain(
        "Decide before 2024-05-01T13:00:00.000Z; after that the event is rejected automatically.",
      );
    }
    expect(email.text).toContain('"total": 990');
  });

  it("leaves out the deadline when the gate never times out", () => {
    const email = buildApprovalEmail({ ...base, timeoutAt: null });
    expect(email.text).not.toContain("Decide before");
  });

  it.each([
    ["nodeName", "<img src=x onerror=alert(1)>"],
    ["webhookName", "<b>bold</b>"],
    ["eventId", "evt_<i>"],
    ["payloadPreview", '{"x":"</pre><script>alert(1)</script>"}'],
  ] as const)("escapes %s in the html part", (field, value) => {
    const email = buildApprovalEmail({ ...base, [field]: value });
    expect(email.html).not.toContain(value);
    expect(email.html).not.toMatch(/<script|<img|<b>|<i>/);
  });

  it("escapes quotes in link urls so they cannot leave the href attribute", () => {
    const email = buildApprovalEmail({ ...base, approveUrl: 'https://x.example/"><script>' });
    expect(email.html).toContain('href="https://x.example/&quot;&gt;&lt;script&gt;"');
  });
});
