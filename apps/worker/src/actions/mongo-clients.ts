import { createHash } from "node:crypto";
import { isIP } from "node:net";
import { isPrivateAddress } from "@hookflow/domain";
import type { MongoClient } from "mongodb";
import { guardedLookup } from "../delivery/guarded-lookup.js";
import { loadMongoDriver } from "./mongo-driver.js";

/** Connected clients kept per connection URI (the least recently used is closed beyond this). */
const MAX_MONGO_CLIENTS = 20;

export interface MongoClients {
  /** A client for the URI, or why it may not be used (a private address literal). */
  get: (
    connectionUri: string,
  ) => Promise<{ ok: true; client: MongoClient } | { ok: false; error: string }>;
  close: () => Promise<void>;
}

/** Host literals of a connection string (`mongodb://u:p@h1:27017,h2/db?x` -> [h1, h2]). */
function mongoHosts(connectionUri: string): string[] {
  const match = /^mongodb(?:\+srv)?:\/\/(?:[^@/]*@)?([^/?]*)/.exec(connectionUri);
  if (!match?.[1]) return [];
  return match[1].split(",").map((host) => {
    const bracketed = /^\[([^\]]+)\]/.exec(host);
    if (bracketed?.[1]) return bracketed[1];
    return host.replace(/:\d+$/, "");
  });
}

/**
 * MongoDB clients of mongo actions, one pool per connection URI (keyed by its hash, never kept in
 * clear beside the client), at most 5 connections each, with the delivery timeout for server
 * selection and connects. Unless private targets are allowed, host names are resolved through
 * the delivery's guarded lookup (checked at connect time, so DNS rebinding cannot pass) and IP
 * literals are checked here: a tenant's URI cannot reach the operator's network.
 */
export function createMongoClients(options: {
  allowPrivate: boolean;
  timeoutMs: number;
}): MongoClients {
  const clients = new Map<string, MongoClient>();
  return {
    get: async (connectionUri) => {
      if (!options.allowPrivate) {
        for (const host of mongoHosts(connectionUri)) {
          if (
            host === "localhost" ||
            host.endsWith(".localhost") ||
            (isIP(host) !== 0 && isPrivateAddress(host))
          ) {
            return {
              ok: false,
              error: `target refused: ${host} is a private, loopback or link-local address`,
            };
          }
        }
      }
      const { MongoClient } = await loadMongoDriver();
      const key = createHash("sha256").update(connectionUri).digest("hex");
      const known = clients.get(key);
      if (known) {
        clients.delete(key);
        clients.set(key, known);
        return { ok: true, client: known };
      }
      let client: MongoClient;
      try {
        client = new MongoClient(connectionUri, {
          maxPoolSize: 5,
          serverSelectionTimeoutMS: options.timeoutMs,
          connectTimeoutMS: options.timeoutMs,
          socketTimeoutMS: options.timeoutMs * 3,
          appName: "hookflow",
          ...(options.allowPrivate ? {} : { lookup: guardedLookup }),
        });
      } catch (error) {
        // The driver's parse error can quote the URI: never passed on.
        void error;
        return { ok: false, error: "the connection URI cannot be parsed" };
      }
      clients.set(key, client);
      if (clients.size > MAX_MONGO_CLIENTS) {
        const [oldest] = clients.keys();
        if (oldest !== undefined) {
          void clients.get(oldest)?.close();
          clients.delete(oldest);
        }
      }
      return { ok: true, client };
    },
    close: async () => {
      await Promise.all([...clients.values()].map((client) => client.close()));
      clients.clear();
    },
  };
}
