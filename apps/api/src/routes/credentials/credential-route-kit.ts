import type { z } from "@hono/zod-openapi";
import { findCredentialById } from "@hookflow/db";
import type { Actor } from "@hookflow/services";
import { assertVisible } from "@hookflow/services";
import type { ApiServices } from "../../services.js";
import { idParams } from "../nodes/resource-route-kit.js";

export const TAG = "Credentials";
export const ID = idParams("cred_01J9Z3K8Q4T6V2X7Y5W0A1B2C3");
export const json = (schema: z.ZodType) => ({ content: { "application/json": { schema } } });

/** The credential with this id if the actor may see it: 404 when there is none, 403 otherwise. */
export async function loadVisibleCredential(services: ApiServices, actor: Actor, id: string) {
  const row = await findCredentialById(services.db.db, id);
  return assertVisible(actor, row, "Credential");
}
