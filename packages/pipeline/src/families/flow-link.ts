import { z } from "zod";
import { type InputNode, type NodeType, NodeTypeInput } from "./common.js";

/**
 * FlowLinks (docs/decisions.md, Flow links): each time the source passes an event on, the
 * webhook's pipeline runs on the source's output as a child event, without HTTP or signature.
 * The source is a webhook or a processing node that runs in a pipeline.
 */

const NOT_SOURCES: ReadonlySet<NodeType> = new Set(["scheduledWorkflow", "flowLink"]);

const id = () => z.string().trim().min(1).max(100);

export const FlowLinkConfig = z.object({
  sourceNodeType: NodeTypeInput.refine((type) => !NOT_SOURCES.has(type), {
    message: "a flow link starts at a webhook or a processing node",
  }),
  sourceNodeId: id(),
  webhookId: id().meta({
    description: "Webhook whose pipeline runs; it must have acceptsInternalCalls",
  }),
  mode: z.enum(["sync", "async"]).meta({
    description:
      "sync: the link's step waits for the webhook's pipeline result and records it; async: fire and forget",
  }),
});
export type FlowLinkConfig = z.infer<typeof FlowLinkConfig>;

/** A link hangs off its source: stored as its only input, so the graph runs it after the source. */
export function flowLinkInputs(config: FlowLinkConfig): InputNode[] {
  return [{ nodeType: config.sourceNodeType, nodeId: config.sourceNodeId }];
}
