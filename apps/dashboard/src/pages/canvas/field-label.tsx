import type { JsonSchema } from "./json-schema";

/** A field's label: its name, a required mark and the schema's description. */
export function FieldLabel({
  id,
  label,
  required,
  schema,
}: {
  id: string;
  label: string;
  required: boolean;
  schema: JsonSchema;
}) {
  return (
    <label htmlFor={id}>
      {label}
      {required && <span aria-hidden="true"> *</span>}
      {schema.description && <span className="hint"> {schema.description}</span>}
    </label>
  );
}
