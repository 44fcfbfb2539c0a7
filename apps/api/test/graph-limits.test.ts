import { createUserWithSession } from "./fixtures.js";
import { type ApiHarness, startApi } from "./harness.js";
import { createNode, insertNodeRow, insertWebhookRow, webhookInput } from "./nodes-fixtures.js";

type User = Awaited<ReturnType<typeof createUserWithSession>>;

const route = (outputWebhookId: string) => ({
  field: "type",
  operator: "exists" as const,
  outputWebhookId,
});
const limiterBody = (from: string, outputs: string[]) => ({
  name: `spread ${from}`,
  maxEvents: 1000,
  windowSeconds: 1,
  inputNodes: [webhookInput(from)],
  outputWebhookIds: outputs,
});

/**
 * One public request must not become millions of events: node writes that would let one event of
 * a webhook spread past GRAPH_MAX_DESCENDANTS events or nest forwards deeper than
 * GRAPH_MAX_FORWARD_DEPTH are refused, naming the limit.
 */
describe("forwarding limits at write time", () => {
  let api: ApiHarness;
  let user: User;
  const hooks = async (n: number) =>
    Promise.all(Array.from({ length: n }, () => insertWebhookRow(api.services.db.db, user.userId)));

  beforeAll(async () => {
    api = await startApi();
    user = await createUserWithSession(api.services.db.db);
  });
  afterAll(async () => {
    await api.close();
  });

  it("refuses the router that nests forwards past 5 levels (400 naming the limit)", async () => {
    const chain = await hooks(7);
    for (let i = 0; i < 5; i++) {
      await createNode(api, user.token, "routers", {
        name: `hop ${i}`,
        inputNodes: [webhookInput(chain[i] as string)],
        routes: [route(chain[i + 1] as string)],
      });
    }
    const res = await api.call("POST", "/api/routers", {
      token: user.token,
      body: {
        name: "hop 5",
        inputNodes: [webhookInput(chain[5] as string)],
        routes: [route(chain[6] as string)],
      },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      statusCode: 400,
      error: "Bad Request",
      message:
        `routes: Forwarding from webhook ${chain[0]} would nest more than 5 levels deep ` +
        "(GRAPH_MAX_FORWARD_DEPTH: at most 5)",
    });
  });

  it("answers 409 when the write only connects existing nodes that forward too deep", async () => {
    const chain = await hooks(7);
    for (let i = 1; i < 6; i++) {
      await createNode(api, user.token, "routers", {
        name: `hop ${i}`,
        inputNodes: [webhookInput(chain[i] as string)],
        routes: [route(chain[i + 1] as string)],
      });
    }
    // A filter not yet fed by any webhook, and a router behind it into the five-level chain.
    const gate = await createNode(api, user.token, "filter-nodes", {
      name: "gate",
      filters: [{ field: "type", operator: "exists" }],
    });
    await createNode(api, user.token, "routers", {
      name: "into the chain",
      inputNodes: [{ nodeType: "filter", nodeId: gate.id }],
      routes: [route(chain[1] as string)],
    });
    const res = await api.call("PATCH", `/api/filter-nodes/${gate.id}`, {
      token: user.token,
      body: { inputNodes: [webhookInput(chain[0] as string)] },
    });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ statusCode: 409, error: "Conflict" });
    expect(res.body.message).toContain("GRAPH_MAX_FORWARD_DEPTH: at most 5");
    const stored = await api.call("GET", `/api/filter-nodes/${gate.id}`, { token: user.token });
    expect(stored.body.inputNodes).toEqual([]);
  });

  it("refuses the limiter that lets one event create more than 100 events", async () => {
    // root -> 10 webhooks, each -> 10 more: 10 + 100 events from one request.
    const [root] = await hooks(1);
    const middle = await hooks(10);
    const leaves = await hooks(10);
    await createNode(api, user.token, "rate-limiter-nodes", limiterBody(root as string, middle));
    for (const hook of middle.slice(0, 9)) {
      await createNode(api, user.token, "rate-limiter-nodes", limiterBody(hook, leaves));
    }
    const res = await api.call("POST", "/api/rate-limiter-nodes", {
      token: user.token,
      body: limiterBody(middle[9] as string, leaves),
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(
      `outputWebhookIds: One event of webhook ${root} could create more than 100 events ` +
        "through forwards (GRAPH_MAX_DESCENDANTS: at most 100 events descend from one event)",
    );
  });

  it("counts a forwarding node once per path that reaches it", async () => {
    const api2 = await startApi({ GRAPH_MAX_DESCENDANTS: "3" });
    try {
      const owner = await createUserWithSession(api2.services.db.db);
      const [source, out] = await Promise.all([
        insertWebhookRow(api2.services.db.db, owner.userId),
        insertWebhookRow(api2.services.db.db, owner.userId),
      ]);
      const branches = [];
      for (const name of ["a", "b"]) {
        branches.push(
          await createNode(api2, owner.token, "filter-nodes", {
            name,
            inputNodes: [webhookInput(source as string)],
            filters: [{ field: "type", operator: "exists" }],
          }),
        );
      }
      // Two paths reach the limiter; two outputs each: four events from one.
      const res = await api2.call("POST", "/api/rate-limiter-nodes", {
        token: owner.token,
        body: {
          ...limiterBody(source as string, [out as string, out as string]),
          inputNodes: branches.map((b) => ({ nodeType: "filter", nodeId: b.id })),
        },
      });
      expect(res.status).toBe(400);
      expect(res.body.message).toContain("GRAPH_MAX_DESCENDANTS: at most 3");
    } finally {
      await api2.close();
    }
  });

  it("takes both limits from the operator's settings", async () => {
    const strict = await startApi({ GRAPH_MAX_FORWARD_DEPTH: "1", GRAPH_MAX_DESCENDANTS: "0" });
    try {
      const owner = await createUserWithSession(strict.services.db.db);
      const [a, b] = await Promise.all([
        insertWebhookRow(strict.services.db.db, owner.userId),
        insertWebhookRow(strict.services.db.db, owner.userId),
      ]);
      const res = await strict.call("POST", "/api/routers", {
        token: owner.token,
        body: { name: "r", inputNodes: [webhookInput(a as string)], routes: [route(b as string)] },
      });
      expect(res.status).toBe(400);
      expect(res.body.message).toContain("GRAPH_MAX_DESCENDANTS: at most 0");
    } finally {
      await strict.close();
    }
  });

  it("keeps a graph stored before the limits editable when a write does not spread it further", async () => {
    const db = api.services.db.db;
    const [root, ...outs] = await hooks(4);
    const legacy = await hooks(8);
    // Stored directly: six levels of forwards, past the limit.
    for (let i = 0; i < 6; i++) {
      await insertNodeRow(
        db,
        { ownerId: user.userId },
        "router",
        { routes: [route(legacy[i + 1] as string)] },
        [webhookInput(legacy[i] as string)],
      );
    }
    const limiter = await createNode(
      api,
      user.token,
      "rate-limiter-nodes",
      limiterBody(root as string, outs),
    );
    // Forwarding into the old chain's last webhook nests nothing deeper than it already was.
    const extended = await api.call("PATCH", `/api/rate-limiter-nodes/${limiter.id}`, {
      token: user.token,
      body: { name: "renamed", outputWebhookIds: [...outs, legacy[6]] },
    });
    expect(extended.status).toBe(200);
    const deeper = await api.call("POST", "/api/routers", {
      token: user.token,
      body: {
        name: "deeper still",
        inputNodes: [webhookInput(legacy[6] as string)],
        routes: [route(legacy[7] as string)],
      },
    });
    expect(deeper.status).toBe(400);
    // legacy[0] and legacy[1] both nest deeper than they did; the message names one of them.
    expect(deeper.body.message).toMatch(
      new RegExp(
        `^routes: Forwarding from webhook (${legacy[0]}|${legacy[1]}) would nest more than 5 ` +
          "levels deep \\(GRAPH_MAX_FORWARD_DEPTH: at most 5\\)$",
      ),
    );
  });
});
