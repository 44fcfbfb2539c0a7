import { errorResponsesOf } from "../../http/route-kit.js";

const ERROR_TEXT = {
  400: "Invalid request; the message names the field",
  401: "Missing, unknown or expired credential (login: wrong email or password)",
  403: "Needs a session token rather than an API key, or a role the caller lacks",
  404: "No such record (or not visible to the caller)",
  409: "Conflicts with the current state; the message says how",
  429: "Too many failed logins; Retry-After says when to try again",
} as const;

/** OpenAPI entries of the error answers of the identity routes, in the documented error shape. */
export function identityErrors(...codes: Array<keyof typeof ERROR_TEXT>) {
  return errorResponsesOf(ERROR_TEXT, codes);
}
