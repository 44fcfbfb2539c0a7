import type { JsonSchema, OpenApiDocument } from "./json-schema";

/**
 * A node family as the OpenAPI document describes it: every collection `/api/<segment>` whose
 * create body takes `inputNodes` is one, so families added to the API appear on the canvas
 * without changes here.
 */
export interface NodeFamily {
  segment: string;
  /** The `nodeType` other nodes name it by in `inputNodes` (`filter`, `schemaValidator`). */
  nodeType: string;
  label: string;
  createSchema: JsonSchema;
  updateSchema: JsonSchema;
}

/** `filter-nodes` -> `filter`, `schema-validators` -> `schemaValidator`, `routers` -> `router`. */
function nodeTypeOf(segment: string): string {
  const base = segment.endsWith("-nodes")
    ? segment.slice(0, -"-nodes".length)
    : segment.replace(/s$/, "");
  return base.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

function singular(tag: string): string {
  return tag.replace(/s$/, "");
}

export function familiesOf(doc: OpenApiDocument): NodeFamily[] {
  const families: NodeFamily[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    const match = /^\/api\/([a-z-]+)$/.exec(path);
    const create = item.post?.requestBody?.content?.["application/json"]?.schema;
    if (!match?.[1] || !create?.$ref) continue;
    const createSchema = doc.components.schemas[create.$ref.replace("#/components/schemas/", "")];
    if (!createSchema?.properties?.inputNodes) continue;
    const patch =
      doc.paths[`${path}/{id}`]?.patch?.requestBody?.content?.["application/json"]?.schema;
    families.push({
      segment: match[1],
      nodeType: nodeTypeOf(match[1]),
      label: singular(item.post?.tags?.[0] ?? match[1]),
      createSchema: create,
      updateSchema: patch ?? create,
    });
  }
  return families;
}
