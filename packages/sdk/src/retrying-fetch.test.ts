import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { HookflowConnectionError } from "./errors.js";
import { createRetryingFetch } from "./retrying-fetch.js";

/** A real server answering each request with the next of `answers` (the last one repeats). */
async function serve(answers: Array<{ status: number; retryAfter?: string } | "hang">) {
  const bodies: string[] = [];
  let count = 0;
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => {
      body += chunk.toString();
    });
    req.on("end", () => {
      bodies.push(body);
      const answer = answers[Math.min(count++, answers.length - 1)];
      if (answer === "hang" || answer === undefined) return;
      if (answer.retryAfter !== undefined) res.setHeader("retry-after", answer.retryAfter);
      res.writeHead(answer.status, { "content-type": "application/json" }).end('{"ok":true}');
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/x`;
  return {
    url,
    bodies,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe("createRetryingFetch", () => {
  it("retries a 429 and a 503 after their Retry-After, resending the body", async () => {
    const server = await serve([
      { status: 429, retryAfter: "1" },
      { status: 503, retryAfter: "2" },
      { status: 200 },
    ]);
    const waits: number[] = [];
    const fetch = createRetryingFetch({ sleep: async (ms) => void waits.push(ms) });
    const response = await fetch(new Request(server.url, { method: "POST", body: "hello" }));
    expect(response.status).toBe(200);
    expect(waits).toEqual([1000, 2000]);
    expect(server.bodies).toEqual(["hello", "hello", "hello"]);
    await server.close();
  });

  it("returns the answer once retries are spent or the wait is too long", async () => {
    const server = await serve([{ status: 503 }]);
    const waits: number[] = [];
    const fetch = createRetryingFetch({ maxRetries: 2, sleep: async (ms) => void waits.push(ms) });
    expect((await fetch(new Request(server.url))).status).toBe(503);
    expect(waits).toEqual([1000, 2000]);
    const longWait = await serve([{ status: 429, retryAfter: "120" }]);
    const patient = createRetryingFetch({ sleep: async (ms) => void waits.push(ms) });
    expect((await patient(new Request(longWait.url))).status).toBe(429);
    expect(waits).toEqual([1000, 2000]);
    await Promise.all([server.close(), longWait.close()]);
  });

  it("gives up on a server that does not answer within the timeout", async () => {
    const server = await serve(["hang"]);
    const fetch = createRetryingFetch({ timeoutMs: 200 });
    const failure = await fetch(new Request(server.url))
      .catch((error: unknown) => error)
      .finally(() => server.close());
    expect(failure).toBeInstanceOf(HookflowConnectionError);
    expect(failure).toMatchObject({ timedOut: true });
  });
});
