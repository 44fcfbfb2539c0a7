import type { JsonSchema, OpenApiDocument } from "./json-schema";

/** What every field of a schema form gets. */
export interface FieldProps {
  doc: OpenApiDocument;
  schema: JsonSchema;
  name: string;
  label: string;
  required: boolean;
  value: unknown;
  onChange: (value: unknown) => void;
}

/** Fields edited as long text: a textarea, laid out full width. */
export const LONG_TEXT = new Set([
  "template",
  "body",
  "document",
  "systemPrompt",
  "promptTemplate",
]);
