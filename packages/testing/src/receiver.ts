import { once } from "node:events";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  receivedAt: number;
}

export interface ReceiverResponse {
  status: number;
  body?: string;
  headers?: Record<string, string>;
  delayMs?: number;
}

export interface Receiver {
  url: string;
  requests: ReceivedRequest[];
  /** Decide the response per request; default 200 `{"ok":true}`. */
  respondWith: (handler: (request: ReceivedRequest) => ReceiverResponse) => void;
  /** Resolves once `count` requests have arrived (rejects after `timeoutMs`). */
  waitForRequests: (count: number, timeoutMs?: number) => Promise<ReceivedRequest[]>;
  close: () => Promise<void>;
}

/** A real HTTP server on loopback that records every request it gets. */
export async function startReceiver(): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  let handler: (request: ReceivedRequest) => ReceiverResponse = () => ({
    status: 200,
    body: '{"ok":true}',
  });
  const waiters: Array<{ count: number; resolve: () => void }> = [];

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const request: ReceivedRequest = {
        method: req.method ?? "GET",
        path: req.url ?? "/",
        headers: req.headers,
        body: Buffer.concat(chunks),
        receivedAt: Date.now(),
      };
      requests.push(request);
      for (const waiter of waiters.filter((w) => requests.length >= w.count)) waiter.resolve();
      const answer = handler(request);
      const send = () => {
        res.writeHead(answer.status, { "content-type": "application/json", ...answer.headers });
        res.end(answer.body ?? "");
      };
      if (answer.delayMs) setTimeout(send, answer.delayMs);
      else send();
    });
  });
  server.keepAliveTimeout = 5000;
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    respondWith: (next) => {
      handler = next;
    },
    waitForRequests: (count, timeoutMs = 10_000) =>
      new Promise((resolve, reject) => {
        if (requests.length >= count) return resolve(requests.slice());
        const timer = setTimeout(
          () =>
            reject(
              new Error(`receiver got ${requests.length} of ${count} requests in ${timeoutMs} ms`),
            ),
          timeoutMs,
        );
        waiters.push({
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve(requests.slice());
          },
        });
      }),
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, "close");
    },
  };
}
