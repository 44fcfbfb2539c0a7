import { startReceiver } from "@hookflow/testing";
import { createHttpSender } from "./http-sender.js";

describe("createHttpSender", () => {
  it("keeps at most 4 KB of the response without splitting a character", async () => {
    const receiver = await startReceiver();
    const sender = createHttpSender({ timeoutMs: 2_000, allowPrivateTargets: true });
    try {
      // "é" is two bytes: 4095 bytes of "x" put the 4096th byte in the middle of one.
      receiver.respondWith(() => ({ status: 201, body: `${"x".repeat(4095)}${"é".repeat(50)}` }));
      const result = await sender.send({ url: receiver.url, headers: {}, body: "{}" });
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
});
