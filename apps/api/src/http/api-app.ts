import { OpenAPIHono } from "@hono/zod-openapi";
import type { AuthEnv } from "../auth/authenticate.js";
import { validationHook } from "./validation-hook.js";

export type ApiApp = OpenAPIHono<AuthEnv>;

/** Every router of the api is one of these, so validation failures share one shape. */
export function newApiApp(): ApiApp {
  return new OpenAPIHono<AuthEnv>({ defaultHook: validationHook });
}
