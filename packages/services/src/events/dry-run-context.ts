import type { PatternPort, TransformPort } from "@hookflow/pipeline";
import type { ServiceContext } from "../context.js";

/**
 * What the dry runs of time travel and contract health need beyond the stores: the engine's
 * sandboxed transform port and off-loop pattern matching (started on first use), and the
 * configured delay scale.
 */
export interface DryRunContext extends ServiceContext {
  transformPort: () => TransformPort;
  patternPort: () => PatternPort;
  config: { delayScale: number };
}
