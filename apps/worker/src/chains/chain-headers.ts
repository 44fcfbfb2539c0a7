import { findEventRawBody } from "@hookflow/db";
import type { WorkerServices } from "../services.js";
import { chainHeadersOf } from "./chain-payload.js";

/**
 * The chain headers of a chain step's delivery (`X-Hookflow-Chain-Step`, `-Original`,
 * `-Previous`), from the step's raw body (its graph may have changed what is delivered).
 * Undefined for an event that is not a chain step: no read then.
 */
export async function chainHeadersFor(
  services: WorkerServices,
  event: { id: string; chainStep: number | null },
): Promise<ReturnType<typeof chainHeadersOf> | undefined> {
  if (event.chainStep === null) return undefined;
  const raw = await findEventRawBody(services.db.db, event.id);
  return chainHeadersOf(raw ?? "", event.chainStep);
}
