import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { type IngressHarness, startIngress } from "./harness.js";

/** Posts one event over a real loopback socket, so the ingress sees a TCP peer. */
async function postOverSocket(
  h: IngressHarness,
  token: string,
  headers: Record<string, string>,
): Promise<number> {
  const server = serve({ fetch: h.app.fetch, port: 0, hostname: "127.0.0.1" });
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  const { port } = server.address() as AddressInfo;
  try {
    const res = await fetch(`http://127.0.0.1:${port}/api/in/${token}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: "{}",
    });
    await res.body?.cancel();
    return res.status;
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

describe("stored source ip without trusted proxies", () => {
  let h: IngressHarness;
  beforeAll(async () => {
    h = await startIngress();
  });
  afterAll(async () => {
    await h.close();
  });

  it("stores the TCP peer and ignores a forged X-Forwarded-For and X-Real-IP", async () => {
    const hook = await h.createWebhook();
    const status = await postOverSocket(h, hook.token, {
      "x-forwarded-for": "203.0.113.9",
      "x-real-ip": "203.0.113.10",
    });
    expect(status).toBe(202);
    const [row] = await h.eventRows(hook.id);
    expect(row.source_ip).toBe("127.0.0.1");
  });
});

describe("stored source ip behind trusted proxies", () => {
  let h: IngressHarness;
  beforeAll(async () => {
    h = await startIngress({ TRUSTED_PROXIES: "loopback, 10.0.0.0/8" });
  });
  afterAll(async () => {
    await h.close();
  });

  it("walks X-Forwarded-For from the right past trusted hops to the client", async () => {
    const hook = await h.createWebhook();
    // The client forged the leftmost entry; 198.51.100.4 reached the first trusted proxy.
    const status = await postOverSocket(h, hook.token, {
      "x-forwarded-for": "203.0.113.9, 198.51.100.4, 10.1.2.3",
    });
    expect(status).toBe(202);
    const [row] = await h.eventRows(hook.id);
    expect(row.source_ip).toBe("198.51.100.4");
  });

  it("stores the proxy's peer address when it forwards nothing", async () => {
    const hook = await h.createWebhook();
    expect(await postOverSocket(h, hook.token, {})).toBe(202);
    const [row] = await h.eventRows(hook.id);
    expect(row.source_ip).toBe("127.0.0.1");
  });
});
