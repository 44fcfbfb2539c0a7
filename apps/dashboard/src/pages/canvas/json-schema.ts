/** The slice of JSON Schema (as the OpenAPI document writes it) the console's forms read. */
export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  allOf?: JsonSchema[];
  additionalProperties?: boolean | JsonSchema;
  default?: unknown;
  description?: string;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  minItems?: number;
  format?: string;
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { schemas: Record<string, JsonSchema> };
}

interface OpenApiOperation {
  operationId?: string;
  tags?: string[];
  summary?: string;
  requestBody?: { content?: { "application/json"?: { schema?: JsonSchema } } };
  responses?: Record<string, { content?: { "application/json"?: { schema?: JsonSchema } } }>;
}

/** Follows `$ref`s and folds `allOf` into one object schema. */
export function resolveSchema(doc: OpenApiDocument, schema: JsonSchema | undefined): JsonSchema {
  if (!schema) return {};
  if (schema.$ref) {
    const name = schema.$ref.replace("#/components/schemas/", "");
    return resolveSchema(doc, doc.components.schemas[name]);
  }
  if (schema.allOf) {
    const parts = schema.allOf.map((part) => resolveSchema(doc, part));
    return {
      ...schema,
      allOf: undefined,
      type: "object",
      properties: Object.assign({}, ...parts.map((p) => p.properties ?? {})),
      required: parts.flatMap((p) => p.required ?? []),
    };
  }
  return schema;
}

/** The main type of a schema, `null` dropped from unions. */
export function typeOf(schema: JsonSchema): string {
  if (Array.isArray(schema.type)) return schema.type.find((t) => t !== "null") ?? "string";
  if (schema.type) return schema.type;
  if (schema.anyOf) return "any";
  if (schema.properties) return "object";
  return "any";
}

/** A value a new form starts from: defaults where the schema has them. */
export function initialValue(doc: OpenApiDocument, raw: JsonSchema): unknown {
  const schema = resolveSchema(doc, raw);
  if (schema.default !== undefined) return structuredClone(schema.default);
  switch (typeOf(schema)) {
    case "object": {
      const out: Record<string, unknown> = {};
      for (const [key, prop] of Object.entries(schema.properties ?? {})) {
        if (schema.required?.includes(key)) out[key] = initialValue(doc, prop);
      }
      return out;
    }
    case "array":
      return (schema.minItems ?? 0) > 0 ? [initialValue(doc, schema.items ?? {})] : [];
    case "boolean":
      return false;
    case "number":
    case "integer":
      return undefined;
    case "string":
      return schema.enum?.[0] ?? "";
    default:
      return "";
  }
}
