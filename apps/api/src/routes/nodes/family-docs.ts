import { z } from "@hono/zod-openapi";
import { FAMILIES, type FamilyKey, InputNodes, NODE_TYPES, NodeName } from "@hookflow/pipeline";
import { familyLabel } from "@hookflow/services";

/** Names a family's routes and schemas carry in the OpenAPI document, derived from its path. */
export interface FamilyDocs {
  /** `filter node`: the singular, lower case. */
  label: string;
  /** `a filter node` / `an approval node`. */
  withArticle: string;
  /** `Filter nodes`: the tag of the family's operations. */
  tag: string;
  /** `FilterNode`: the component name of the record. */
  component: string;
  /**
   * Stable operation ids of the family's CRUD routes (`listFilterNodes`, `createFilterNode`, ...),
   * from the component name: SDK method names in any language, so they never change.
   */
  operationIds: Record<NodeRouteVerb, string>;
}

type NodeRouteVerb = "list" | "create" | "get" | "update" | "delete";

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function familyDocs(key: FamilyKey): FamilyDocs {
  const path = FAMILIES[key].path;
  const label = familyLabel(key);
  const component = label.split(" ").map(capitalize).join("");
  return {
    label,
    withArticle: `${/^[aeiou]/.test(label) ? "an" : "a"} ${label}`,
    tag: capitalize(path.replaceAll("-", " ")),
    component,
    operationIds: {
      list: `list${component}s`,
      create: `create${component}`,
      get: `get${component}`,
      update: `update${component}`,
      delete: `delete${component}`,
    },
  };
}

const StoredInputNode = z.object({
  nodeType: z.enum(NODE_TYPES),
  nodeId: z.string(),
});

/**
 * The create body of a family: `name`, `inputNodes` and its config fields, those with a default
 * optional (the default is shown). The route validates with it; `parseCreateNode` then applies
 * the defaults and the whole-config rules.
 */
export function createBodySchema(key: FamilyKey) {
  const { config, defaults } = FAMILIES[key];
  const fields: Record<string, z.ZodType> = {};
  for (const [name, schema] of Object.entries(config.shape as Record<string, z.ZodType>)) {
    const fallback = (defaults as Record<string, unknown>)[name];
    fields[name] = fallback === undefined ? schema : schema.optional().meta({ default: fallback });
  }
  const { defaultName } = FAMILIES[key] as { defaultName?: string };
  const name = defaultName ? NodeName.optional().meta({ default: defaultName }) : NodeName;
  return z
    .object({ name, inputNodes: InputNodes.optional(), ...fields })
    .openapi(`Create${familyDocs(key).component}Input`);
}

/** The PATCH body: every field optional; only those given change. */
export function patchBodySchema(key: FamilyKey) {
  return z
    .object({
      name: NodeName.optional(),
      inputNodes: InputNodes.optional(),
      // Rebuilt from the shape: zod refuses .partial() on a schema with whole-object refinements.
      ...z.object(FAMILIES[key].config.shape).partial().shape,
    })
    .openapi(`Update${familyDocs(key).component}Input`);
}

/**
 * The record as every route returns it (`toNodeResponse`). Typed as a plain record: the routes
 * are generic over families, the document still carries the family's full schema.
 */
export function responseSchema(key: FamilyKey): z.ZodType<Record<string, unknown>> {
  return z
    .object({
      id: z.string(),
      _id: z.string(),
      name: z.string(),
      ...FAMILIES[key].config.shape,
      inputNodes: z.array(StoredInputNode),
      ownerId: z.string(),
      organizationId: z.string().nullable(),
      createdAt: z.string(),
      updatedAt: z.string(),
    })
    .openapi(familyDocs(key).component);
}
