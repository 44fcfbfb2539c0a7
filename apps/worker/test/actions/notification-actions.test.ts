import { type Receiver, startReceiver } from "@hookflow/testing";
import { startWorkerHarness, type WorkerHarness } from "../harness.js";
import { createNode, fromWebhook } from "../pipeline/pipeline-harness.js";
import { waitForActionRuns } from "./actions-harness.js";

describe("notification actions", () => {
  let h: WorkerHarness;
  let target: Receiver;
  let chat: Receiver;
  beforeAll(async () => {
    h = await startWorkerHarness();
    target = await startReceiver();
    chat = await startReceiver();
  });
  afterAll(async () => {
    await h.close();
    await target.close();
    await chat.close();
  });
  async function fire(
    config: Record<string, unknown>,
    body = '{"order":{"id":"A-1"},"note":"<@here> & co"}',
  ) {
    chat.requests.length = 0;
    const webhook = await h.createWebhook({ targetUrl: target.url, name: "Shop <orders>" });
    await createNode(
      h,
      "notificationAction",
      { webhookUrl: `${chat.url}/hook`, ...config } as never,
      [fromWebhook(webhook.id)],
    );
    const event = await h.createEvent(webhook, { body });
    const [run] = await waitForActionRuns(h, event.id, 1);
    expect(run?.status).toBe("success");
    expect(chat.requests).toHaveLength(1);
    expect(chat.requests[0]?.headers["content-type"]).toBe("application/json");
    return { eventId: event.id, body: JSON.parse(chat.requests[0]?.body.toString() ?? "") };
  }

  it("posts Slack's default preset as {text, blocks}, escaping the webhook's name", async () => {
    const { eventId, body } = await fire({ platform: "slack" });
    const text = `Shop &lt;orders&gt;: event ${eventId} delivered (HTTP 200)`;
    expect(body).toEqual({
      text,
      blocks: [{ type: "section", text: { type: "mrkdwn", text: `:white_check_mark: *${text}*` } }],
    });
  });

  it("posts Slack's detailed preset with fields and the payload", async () => {
    const { eventId, body } = await fire({ platform: "slack", templatePreset: "detailed" });
    expect(body.blocks).toHaveLength(3);
    expect(body.blocks[1].fields).toEqual([
      { type: "mrkdwn", text: "*Webhook*\nShop &lt;orders&gt;" },
      { type: "mrkdwn", text: `*Event*\n${eventId}` },
      { type: "mrkdwn", text: "*Outcome*\nsuccess" },
      { type: "mrkdwn", text: "*HTTP status*\n200" },
    ]);
    expect(body.blocks[2].text.text).toContain("&lt;@here&gt; &amp; co");
  });

  it("posts Slack's minimal preset as one context line", async () => {
    const { eventId, body } = await fire({ platform: "slack", templatePreset: "minimal" });
    expect(body).toEqual({
      text: `Shop &lt;orders&gt;: event ${eventId} delivered (HTTP 200)`,
      blocks: [
        {
          type: "context",
          elements: [
            {
              type: "mrkdwn",
              text: `:white_check_mark: Shop &lt;orders&gt;: event ${eventId} delivered (HTTP 200)`,
            },
          ],
        },
      ],
    });
  });

  it("posts Discord's presets as {content, embeds} with mentions switched off", async () => {
    const { eventId, body } = await fire({ platform: "discord" });
    expect(body).toEqual({
      content: `Shop <orders>: event ${eventId} delivered (HTTP 200)`,
      allowed_mentions: { parse: [] },
      embeds: [
        { title: "Shop <orders>", description: `Event ${eventId} delivered`, color: 0x2eb67d },
      ],
    });
    const detailed = await fire({ platform: "discord", templatePreset: "detailed" });
    expect(detailed.body.embeds[0].fields).toEqual([
      { name: "Event", value: detailed.eventId, inline: true },
      { name: "Outcome", value: "success", inline: true },
      { name: "HTTP status", value: "200", inline: true },
    ]);
    expect(detailed.body.embeds[0].description).toContain('"A-1"');
    const minimal = await fire({ platform: "discord", templatePreset: "minimal" });
    expect(minimal.body.embeds).toEqual([]);
  });

  it("renders the custom preset from its JSON template", async () => {
    const { eventId, body } = await fire({
      platform: "slack",
      templatePreset: "custom",
      customTemplate:
        '{"text":"Order {{payload.order.id}} ({{event.id}})","order":"{{payload.order}}"}',
    });
    expect(body).toEqual({ text: `Order A-1 (${eventId})`, order: { id: "A-1" } });
  });
});

describe("actions against private addresses", () => {
  let h: WorkerHarness;
  let inside: Receiver;
  beforeAll(async () => {
    h = await startWorkerHarness({ ALLOW_PRIVATE_TARGETS: "false" });
    inside = await startReceiver();
  });
  afterAll(async () => {
    await h.close();
    await inside.close();
  });

  it("refuses a private target once, without retries, and sends nothing", async () => {
    const webhook = await h.createWebhook({ targetUrl: "" });
    await createNode(h, "httpAction", { url: `${inside.url}/internal` }, [fromWebhook(webhook.id)]);
    await createNode(
      h,
      "notificationAction",
      { platform: "slack", webhookUrl: `${inside.url}/chat` },
      [fromWebhook(webhook.id)],
    );
    const event = await h.createEvent(webhook);
    const runs = await waitForActionRuns(h, event.id, 2);
    for (const run of runs) {
      expect(run).toMatchObject({ status: "failed", tries: 1 });
      expect(run.error).toMatch(/private|refused/);
    }
    expect(inside.requests).toHaveLength(0);
  });
});
