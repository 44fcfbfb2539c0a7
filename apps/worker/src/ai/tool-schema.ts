import type { FamilyConfig, PipelineGraph } from "@hookflow/pipeline";

type SchemaField = FamilyConfig<"schemaValidator">["fields"][number];

interface ObjectSchema {
  type: "object";
  properties: Record<string, Record<string, unknown>>;
  required: string[];
}

function leafOf(field: SchemaField): Record<string, unknown> {
  const c = field.constraints ?? {};
  return {
    type: field.type,
    ...(c.min !== undefined ? { minimum: c.min } : {}),
    ...(c.max !== undefined ? { maximum: c.max } : {}),
    ...(c.minLength !== undefined ? { minLength: c.minLength } : {}),
    ...(c.maxLength !== undefined ? { maxLength: c.maxLength } : {}),
    ...(c.pattern !== undefined ? { pattern: c.pattern } : {}),
    ...(c.enum !== undefined ? { enum: c.enum } : {}),
    ...(c.format !== undefined ? { format: c.format } : {}),
  };
}

/**
 * A JSON schema of a schema validator's fields, for a tool's `parameters`: dotted paths become
 * nested objects; fields that index into arrays (`items.0.sku`) are left to the validator.
 */
function jsonSchemaOf(fields: readonly SchemaField[]): ObjectSchema {
  const root: ObjectSchema = { type: "object", properties: {}, required: [] };
  for (const field of fields) {
    const segments = field.path.split(".");
    if (segments.some((segment) => /^\d+$/.test(segment))) continue;
    let node = root;
    for (const segment of segments.slice(0, -1)) {
      const next = node.properties[segment];
      if (next?.type === "object" && "properties" in next) {
        node = next as unknown as ObjectSchema;
      } else {
        const created: ObjectSchema = { type: "object", properties: {}, required: [] };
        node.properties[segment] = created as unknown as Record<string, unknown>;
        node = created;
      }
    }
    const last = segments.at(-1) as string;
    node.properties[last] = leafOf(field);
    if (field.required && !node.required.includes(last)) node.required.push(last);
  }
  return root;
}

/** The parameters of a webhook's tool: its first schema validator's fields, else any object. */
export function toolParametersOf(graph: PipelineGraph, order: readonly string[]): object {
  for (const id of order) {
    const node = graph.nodes.get(id);
    if (node?.family === "schemaValidator") {
      return jsonSchemaOf((node.config as FamilyConfig<"schemaValidator">).fields);
    }
  }
  return { type: "object" };
}
