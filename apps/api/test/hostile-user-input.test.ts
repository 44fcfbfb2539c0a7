import { createUserWithSession } from "./fixtures.js";
import { type ApiHarness, startApi } from "./harness.js";
import { createNode, insertEventRow, insertWebhookRow, webhookInput } from "./nodes-fixtures.js";

type User = Awaited<ReturnType<typeof createUserWithSession>>;
type Body = Record<string, any>;

/**
 * User regexes and templates reach the api's event loop through node writes, time travel and
 * contract health. Each attack below used to hold it for a minute or more (a backtracking regex
 * on 31 characters; a template serializing a 250 KB payload on each of 45,000 loop turns).
 */
describe("hostile user input on the api", () => {
  let api: ApiHarness;
  let alice: User;
  let hook: string;
  let validator: Body;
  let snapshotId: string;
  let templateHook: string;
  let template: Body;
  let templateSnapshotId: string;

  async function snapshotOf(webhookId: string): Promise<string> {
    const res = await api.call("POST", "/api/canvas-snapshots", {
      token: alice.token,
      body: {
        name: "flow",
        nodes: [
          {
            id: `webhook-${webhookId}`,
            type: "webhook",
            position: { x: 0, y: 0 },
            data: { webhookId },
          },
        ],
        edges: [],
      },
    });
    if (res.status !== 201) throw new Error(JSON.stringify(res.body));
    return res.body.id;
  }

  beforeAll(async () => {
    api = await startApi();
    alice = await createUserWithSession(api.services.db.db);
    hook = await insertWebhookRow(api.services.db.db, alice.userId);
    validator = await createNode(api, alice.token, "schema-validators", {
      name: "catastrophic for a backtracking engine",
      fields: [{ path: "s", type: "string", required: true, constraints: { pattern: "^(a|a)*$" } }],
      inputNodes: [webhookInput(hook)],
    });
    snapshotId = await snapshotOf(hook);
    templateHook = await insertWebhookRow(api.services.db.db, alice.userId);
    template = await createNode(api, alice.token, "transform-nodes", {
      name: "serializes the payload per item",
      transformMode: "handlebars",
      template: "{{#each items}}{{#if (json @root)}}{{/if}}{{/each}}",
      inputNodes: [webhookInput(templateHook)],
    });
    templateSnapshotId = await snapshotOf(templateHook);
  });
  afterAll(async () => {
    await api.close();
  });

  it.each<[string, string, RegExp]>([
    ["a lookahead", "^(?=a)a$", /pattern not supported by the linear-time engine/],
    ["a back-reference", "^(a)\\1$", /pattern not supported by the linear-time engine/],
    ["a pattern too large to compile", "\\w{1000}\\w{1000}\\w{1000}", /pattern too large/],
    ["invalid syntax", "(", /pattern invalid regular expression/],
  ])(
    "refuses %s in a validator pattern with 400 naming the field",
    async (_name, pattern, message) => {
      const res = await api.call("POST", "/api/schema-validators", {
        token: alice.token,
        body: {
          name: "x",
          fields: [
            { path: "a", type: "string" },
            { path: "b", type: "string", constraints: { pattern } },
          ],
        },
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ statusCode: 400, error: "Bad Request" });
      expect(res.body.message).toMatch(/^fields\.1\.constraints\.pattern: /);
      expect(res.body.message).toMatch(message);
    },
  );

  it("refuses patterns too large together with 400 naming the field list", async () => {
    const fields = Array.from({ length: 12 }, (_, i) => ({
      path: `f${i}`,
      type: "string",
      constraints: { pattern: "^\\w{1,900}$" },
    }));
    const res = await api.call("POST", "/api/schema-validators", {
      token: alice.token,
      body: { name: "x", fields },
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^fields: the patterns are too large together/);
  });

  it("time-travels an event through a catastrophic pattern in linear time", async () => {
    const eventId = await insertEventRow(api.services.db.db, hook, { s: `${"a".repeat(30)}!` });
    const [travel, health] = await Promise.all([
      api.call("POST", `/api/events/${eventId}/time-travel`, {
        token: alice.token,
        body: { snapshotId },
      }),
      api.call("GET", "/api/health"),
    ]);
    expect(health.status).toBe(200);
    expect(travel.status).toBe(200);
    expect(travel.body.steps.at(-1)).toMatchObject({
      node: validator.id,
      result: "failed",
      error: "s: must match pattern ^(a|a)*$",
    });
    // One more round trip: had the match held the event loop past the test's time limit, the
    // limit's timer (due meanwhile) would fire before this answer and fail the test.
    expect((await api.call("GET", "/api/health")).status).toBe(200);
  });

  it("scores contract health through a catastrophic pattern in linear time", async () => {
    await insertEventRow(api.services.db.db, hook, { s: `${"a".repeat(34)}!` });
    const res = await api.call("GET", `/api/events/${hook}/contract-health`, {
      token: alice.token,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      validators: [{ id: validator.id, passRate: 0 }],
    });
    expect((await api.call("GET", "/api/health")).status).toBe(200);
  });

  it("time-travels a payload-serializing Handlebars loop into its limit, off the event loop", async () => {
    const items = Array.from({ length: 45_000 }, (_, i) => i);
    const eventId = await insertEventRow(api.services.db.db, templateHook, { items });
    const res = await api.call("POST", `/api/events/${eventId}/time-travel`, {
      token: alice.token,
      body: { snapshotId: templateSnapshotId },
    });
    expect(res.status).toBe(200);
    expect(res.body.steps.at(-1)).toMatchObject({
      node: template.id,
      result: "failed",
      error: expect.stringMatching(/time limit|characters written or serialized/),
    });
  });
});
