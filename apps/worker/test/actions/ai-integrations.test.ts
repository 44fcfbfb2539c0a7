import {
  answerReply,
  type ChatStandIn,
  type GoogleStandIn,
  type Receiver,
  startChatStandIn,
  startGoogleStandIn,
  startReceiver,
  toolCallReply,
} from "@hookflow/testing";
import { startWorkerHarness, type WorkerHarness } from "../harness.js";
import { createNode, fromWebhook } from "../pipeline/pipeline-harness.js";
import { insertCredential } from "./actions-harness.js";

describe("AI nodes with stored credentials and Gmail actions as tools", () => {
  let h: WorkerHarness;
  let model: ChatStandIn;
  let google: GoogleStandIn;
  let receiver: Receiver;
  beforeAll(async () => {
    model = await startChatStandIn();
    google = await startGoogleStandIn();
    receiver = await startReceiver();
    h = await startWorkerHarness({
      GOOGLE_API_BASE_URL: google.url,
      GOOGLE_OAUTH_TOKEN_URL: google.tokenUrl,
    });
  });
  afterAll(async () => {
    await h.close();
    await model.close();
    await google.close();
    await receiver.close();
  });

  it("sends the bearer credential's token and offers the Gmail toolkit but trash", async () => {
    const apiKey = await insertCredential(h, "bearer", { token: "sk-live-secret" });
    const oauth = await insertCredential(h, "google_oauth", { accessToken: google.accessToken() });
    const mailbox = await h.createWebhook({ targetUrl: "" });
    await createNode(
      h,
      "gmailAction",
      { credentialId: oauth, operation: "list_labels", aiEnabled: true },
      [fromWebhook(mailbox.id)],
    );
    await createNode(
      h,
      "gmailAction",
      { credentialId: oauth, operation: "list_labels", aiEnabled: false },
      [fromWebhook(mailbox.id)],
    );
    const source = await h.createWebhook({ targetUrl: `${receiver.url}/ai` });
    await createNode(
      h,
      "aiNode",
      {
        baseUrl: model.url,
        model: "stand-in-1",
        credentialId: apiKey,
        promptTemplate: "Label {{id}}",
        maxToolCalls: 1,
      },
      [fromWebhook(source.id)],
    );
    const start = model.requests.length;
    model.script((_request, index) =>
      index === start
        ? toolCallReply("gmail_add_labels", { messageId: "msg-1", labelIds: ["Label_7"] })
        : answerReply("labelled"),
    );
    const { id } = await h.createEvent(source, { body: '{"id":"msg-1"}' });
    await h.waitForStatus(id, "delivered");
    const [first, second] = model.requests.slice(start);
    expect(first?.authorization).toBe("Bearer sk-live-secret");
    const names = (first?.body.tools ?? []).map((t) => (t.function as { name: string }).name);
    expect(names.filter((n) => n.startsWith("gmail_")).sort()).toEqual(
      [
        "add_labels",
        "archive",
        "create_draft",
        "create_label",
        "forward",
        "get_message",
        "get_thread",
        "list_labels",
        "list_messages",
        "list_threads",
        "mark_read",
        "mark_unread",
        "remove_labels",
        "reply",
        "send",
        "send_draft",
      ].map((op) => `gmail_${op}`),
    );
    const modify = google.calls.find((c) => c.url === "/gmail/v1/users/me/messages/msg-1/modify");
    expect(modify?.json).toEqual({ addLabelIds: ["Label_7"], removeLabelIds: [] });
    expect(JSON.parse(String(second?.body.messages?.at(-1)?.content))).toMatchObject({
      id: "msg-1",
      labelIds: expect.arrayContaining(["Label_7"]),
    });
    expect(receiver.requests.at(-1)?.body.toString()).toBe("labelled");
  });

  it("gives no token for a credential of another type", async () => {
    const smtp = await insertCredential(h, "smtp", { host: "smtp.example.com" });
    const source = await h.createWebhook({ targetUrl: `${receiver.url}/ai-smtp` });
    await createNode(
      h,
      "aiNode",
      { baseUrl: model.url, model: "m", credentialId: smtp, promptTemplate: "x" },
      [fromWebhook(source.id)],
    );
    const { id } = await h.createEvent(source, { body: "{}" });
    const event = await h.waitForStatus(id, "failed");
    expect(event.lastError).toContain(`credentialId: credential ${smtp} cannot be used`);
  });
});
