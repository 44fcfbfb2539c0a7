import type { z } from "@hono/zod-openapi";
import { idParams } from "../nodes/resource-route-kit.js";

export const TAG = "Credentials";
export const ID = idParams("cred_01J9Z3K8Q4T6V2X7Y5W0A1B2C3");
export const json = (schema: z.ZodType) => ({ content: { "application/json": { schema } } });
