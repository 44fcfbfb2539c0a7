import { describeZodError, ValidationError } from "@hookflow/domain";
import type { z } from "zod";

/**
 * zod-openapi's defaultHook: a request that fails its schema becomes a 400 naming the field,
 * in the documented error shape.
 */
export function validationHook(result: { success: boolean; error?: z.ZodError }): void {
  if (!result.success && result.error) throw new ValidationError(describeZodError(result.error));
}
