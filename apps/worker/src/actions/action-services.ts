import type { HookflowConfig } from "@hookflow/config";
import type { DbHandle } from "@hookflow/db";
import type { KeyRing } from "@hookflow/domain";
import { createGoogleClient, createSealedGoogleCredentialStore } from "@hookflow/google";
import type { Mailer } from "@hookflow/mail";
import type { TransformPort } from "@hookflow/pipeline";
import { type ActionJobData, createActionQueue } from "@hookflow/queue";
import type { Queue } from "bullmq";
import type { Redis } from "ioredis";
import type { HttpSender } from "../delivery/http-sender.js";
import { type ActionPorts, createCredentialOpener } from "./action-ports.js";
import { createMongoClients } from "./mongo-clients.js";
import { createTemplateRenderer } from "./render-templates.js";

/** The worker's post-delivery action parts: the run queue and the executors' ports. */
export interface ActionServices {
  queue: Queue<ActionJobData>;
  ports: ActionPorts;
  close: () => Promise<void>;
}

export function buildActionServices(options: {
  config: HookflowConfig;
  db: DbHandle;
  keyRing: KeyRing;
  bullConnection: Redis;
  bullPrefix: string;
  http: HttpSender;
  transform: TransformPort;
  mailer: Mailer;
  now: () => Date;
}): ActionServices {
  const { config } = options;
  const queue = createActionQueue({
    connection: options.bullConnection,
    prefix: options.bullPrefix,
    delayScale: config.delayScale,
  });
  const mongo = createMongoClients({
    allowPrivate: config.allowPrivateTargets,
    timeoutMs: config.deliveryTimeoutMs,
  });
  const ports: ActionPorts = {
    http: options.http,
    render: createTemplateRenderer({
      transform: options.transform,
      maxChars: config.maxPayloadBytes,
    }),
    openCredential: createCredentialOpener(options.db, options.keyRing),
    mailer: options.mailer,
    google: (owner) =>
      createGoogleClient(
        createSealedGoogleCredentialStore({
          db: options.db,
          keyRing: options.keyRing,
          owner,
          now: options.now,
        }),
        { tokenUrl: config.google.tokenUrl, timeoutMs: config.deliveryTimeoutMs, now: options.now },
      ),
    googleBaseUrls: { sheets: config.google.sheetsBaseUrl, gmail: config.google.gmailBaseUrl },
    mongo,
  };
  return {
    queue,
    ports,
    close: async () => {
      await queue.close();
      await mongo.close();
    },
  };
}
