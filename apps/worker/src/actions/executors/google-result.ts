import type { GoogleCallResult } from "@hookflow/google";
import { type ActionResult, isRetryableStatus } from "../action-types.js";

/** A Google call's outcome as an action try's: 5xx, 429 and network failures are tried again. */
export function fromGoogleCall(result: GoogleCallResult): ActionResult {
  if (result.ok) return { ok: true, statusCode: result.status, response: result.text };
  return {
    ok: false,
    error: result.error,
    retryable: result.permanent !== true && isRetryableStatus(result.status),
    ...(result.status > 0 ? { statusCode: result.status } : {}),
    ...(result.text ? { response: result.text } : {}),
  };
}
