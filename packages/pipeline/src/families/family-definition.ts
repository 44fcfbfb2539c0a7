import type { z } from "zod";
import type { InputNode, NodeType } from "./common.js";

/**
 * One entry per processing-node family. Adding a family is one entry here (plus its executor in
 * the engine): the API's CRUD routes, the database table and the graph code are generic.
 */
export interface FamilyDefinition<T extends z.ZodObject> {
  /** Canonical node type, used in inputNodes, steps and parkedAt. */
  nodeType: NodeType;
  /** URL path segment under /api. */
  path: string;
  /** Id prefix: `rtr_01J...`. */
  idPrefix: string;
  config: T;
  /** Values for the config fields a create may omit. */
  defaults: Partial<z.infer<T>>;
  /**
   * `action`: a post-delivery action, fired after its event's delivery settles (never a node of
   * the graph an event passes through). Absent: a processing node.
   */
  role?: "action";
  /**
   * A source starts events of its own (a scheduled workflow's ticks) and takes no inputNodes;
   * it never runs inside a webhook's pipeline.
   */
  source?: true;
  /** inputNodes derived from the config (a flow link's source); a body may not set them. */
  inputsOf?: (config: z.infer<T>) => InputNode[];
  /** The name a create without one gets. */
  defaultName?: string;
}

export function family<T extends z.ZodObject>(
  definition: FamilyDefinition<T>,
): FamilyDefinition<T> {
  return definition;
}

export function action<T extends z.ZodObject>(
  definition: Omit<FamilyDefinition<T>, "role">,
): FamilyDefinition<T> & { role: "action" } {
  return { ...definition, role: "action" };
}
