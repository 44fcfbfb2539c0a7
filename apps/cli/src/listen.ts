import { Server } from "node:http";
import { serve } from "@hono/node-server";
import type { FetchHandler } from "./compose-fetch.js";

export interface Listening {
  port: number;
  /** Stops accepting, lets requests in flight finish, then cuts what is left after `graceMs`. */
  close: (graceMs: number) => Promise<void>;
}

/** Serves `fetch` on `host:port`; resolves once the socket is bound, rejects if it cannot be. */
export function listen(fetch: FetchHandler, options: { host: string; port: number }) {
  return new Promise<Listening>((resolve, reject) => {
    const server = serve(
      {
        fetch: (request, env) => fetch(request, env),
        port: options.port,
        hostname: options.host,
      },
      (info) => {
        server.off("error", reject);
        resolve({
          port: info.port,
          close: (graceMs) =>
            new Promise<void>((done) => {
              const cut = setTimeout(() => {
                if (server instanceof Server) server.closeAllConnections();
              }, graceMs);
              server.close(() => {
                clearTimeout(cut);
                done();
              });
              if (server instanceof Server) server.closeIdleConnections();
            }),
        });
      },
    );
    server.once("error", reject);
  });
}

/** Resolves with the first SIGTERM or SIGINT. */
export function waitForShutdownSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const onSignal = (signal: NodeJS.Signals) => {
      process.off("SIGTERM", onSignal);
      process.off("SIGINT", onSignal);
      resolve(signal);
    };
    process.on("SIGTERM", onSignal);
    process.on("SIGINT", onSignal);
  });
}
