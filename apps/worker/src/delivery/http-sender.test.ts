import { once } from "node:events";
import { createServer, type RequestListener, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { startReceiver } from "@hookflow/testing";
import { createHttpSender } from "./http-sender.js";

/**
 * The limit for sends that must succeed, far above what they need: the first request of a test
 * process also loads undici and compiles its HTTP parser, and with a 2 s limit this file's first
 * send failed once (status 0) on a loaded 2-core CI machine. Only the timeout tests depend on the
 * limit itself; the error assertion names the cause if a send fails again.
 */
const SUCCESS_TIMEOUT_MS = 20_000;

describe("createHttpSender", () => {
  it("keeps at most 4 KB of the response without splitting a character", async () => {
    const receiver = await startReceiver();
    const sender = createHttpSender({ timeoutMs: SUCCESS_TIMEOUT_MS, allowPrivateTargets: true });
    try {
      // "é" is two bytes: 4095 bytes of "x" put the 4096th byte in the middle of one.
      receiver.respondWith(() => ({ status: 201, body: `${"x".repeat(4095)}${"é".repeat(50)}` }));
      const result = await sender.send({ url: receiver.url, headers: {}, body: "{}" });
      expect(result.error).toBeNull();
      expect(result.statusCode).toBe(201);
      expect(result.responseBody).toBe("x".repeat(4095));
      expect(Buffer.byteLength(result.responseBody)).toBeLessThanOrEqual(4096);
    } finally {
      await sender.close();
      await receiver.close();
    }
  });

  it("reports a timeout as an error without a status code", async () => {
    const receiver = await startReceiver();
    const sender = createHttpSender({ timeoutMs: 200, allowPrivateTargets: true });
    try {
      receiver.respondWith(() => ({ status: 200, delayMs: 1_000 }));
      const result = await sender.send({ url: receiver.url, headers: {}, body: "{}" });
      expect(result.statusCode).toBe(0);
      expect(result.error).toBe("timeout: no complete response within 200 ms");
      expect(result.refused).toBe(false);
    } finally {
      await sender.close();
      await receiver.close();
    }
  });

  it("refuses non-http urls and private literals before any request", async () => {
    const sender = createHttpSender({ timeoutMs: 200, allowPrivateTargets: false });
    try {
      const ftp = await sender.send({ url: "ftp://example.com/x", headers: {}, body: "{}" });
      expect(ftp).toMatchObject({ statusCode: 0, refused: true });
      const link = await sender.send({ url: "http://169.254.169.254/", headers: {}, body: "{}" });
      expect(link.refused).toBe(true);
      expect(link.error).toMatch(/target refused: 169\.254\.169\.254/);
    } finally {
      await sender.close();
    }
  });

  it("cuts an endless response body at 4 KB and answers", async () => {
    const { url, close } = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      const pump = () => {
        while (!res.destroyed && res.write("y".repeat(1024))) {}
        if (!res.destroyed) res.once("drain", pump);
      };
      pump();
    });
    const sender = createHttpSender({ timeoutMs: SUCCESS_TIMEOUT_MS, allowPrivateTargets: true });
    try {
      const result = await sender.send({ url, headers: {}, body: "{}" });
      expect(result).toMatchObject({ statusCode: 200, error: null });
      expect(result.responseBody).toBe("y".repeat(4096));
    } finally {
      await sender.close();
      await close();
    }
  });

  it("reports a timeout when the body never ends after the headers", async () => {
    const { url, close } = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      res.write("partial");
    });
    const sender = createHttpSender({ timeoutMs: 200, allowPrivateTargets: true });
    try {
      const result = await sender.send({ url, headers: {}, body: "{}" });
      expect(result).toMatchObject({
        statusCode: 0,
        responseBody: "",
        error: "timeout: no complete response within 200 ms",
        refused: false,
      });
    } finally {
      await sender.close();
      await close();
    }
  });
});

/** A local HTTP server answering with `handler`; `close` drops its open connections too. */
async function serve(
  handler: RequestListener,
): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer(handler);
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, "close");
    },
  };
}
