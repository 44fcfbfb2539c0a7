import { buildApprovalEmail } from "./approval-email.js";
import { redactApprovalLinks } from "./redact-approval-links.js";
import { approvalLinks } from "./send-approval-request.js";

describe("redactApprovalLinks", () => {
  it("removes the token of every link an approval mail carries, in text and html", () => {
    const links = approvalLinks({
      secret: "s".repeat(40),
      publicBaseUrl: "https://hooks.example.com/",
      parkId: "park_1",
      expiresAt: new Date("2030-01-01T00:00:00Z"),
    });
    const mail = buildApprovalEmail({
      nodeName: "Large orders",
      webhookName: "Shop",
      eventId: "evt_1",
      payloadPreview: '{"order":1}',
      approveUrl: links.approved,
      rejectUrl: links.rejected,
      timeoutAt: new Date("2030-01-01T00:00:00Z"),
      autoActionOnTimeout: "reject",
    });
    const tokens = [links.approved, links.rejected].map((url) => url.split("/").at(-1) ?? "");
    for (const body of [mail.text, mail.html]) {
      const redacted = redactApprovalLinks(body);
      for (const token of tokens) {
        expect(body).toContain(token);
        expect(redacted).not.toContain(token);
      }
      expect(redacted).toContain("https://hooks.example.com/api/approvals/[redacted]");
    }
  });

  it("leaves text without links alone", () => {
    expect(redactApprovalLinks("Approve at /api/approval-nodes/apr_1")).toBe(
      "Approve at /api/approval-nodes/apr_1",
    );
  });
});
