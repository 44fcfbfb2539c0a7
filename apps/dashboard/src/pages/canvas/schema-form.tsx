import { useId } from "react";
import { FieldLabel } from "./field-label";
import { type FieldProps, LONG_TEXT } from "./field-props";
import { JsonField } from "./json-field";
import { initialValue, resolveSchema, typeOf } from "./json-schema";
import { ScalarField } from "./scalar-field";

/** Fields the canvas sets itself (edges), never typed into a form. */
const MANAGED = new Set(["inputNodes"]);

function humanize(name: string): string {
  const words = name.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function ListField(props: FieldProps) {
  const items = Array.isArray(props.value) ? props.value : [];
  const itemSchema = resolveSchema(props.doc, props.schema.items);
  const id = useId();
  if (typeOf(itemSchema) === "string" && !itemSchema.enum) {
    return (
      <div className="field">
        <FieldLabel
          id={id}
          label={`${props.label} (one per line)`}
          required={props.required}
          schema={props.schema}
        />
        <textarea
          id={id}
          value={items.join("\n")}
          onChange={(e) => props.onChange(e.target.value.split("\n").filter((line) => line !== ""))}
        />
      </div>
    );
  }
  const setItem = (index: number, value: unknown) =>
    props.onChange(items.map((item, i) => (i === index ? value : item)));
  return (
    <fieldset>
      <legend>
        {props.label}
        {props.required && " *"}
      </legend>
      {items.map((item, index) => (
        <div key={index} className="card stack" style={{ padding: "0.7rem" }}>
          <div className="spread">
            <strong className="small">
              {props.label.replace(/s$/, "")} {index + 1}
            </strong>
            <button
              type="button"
              className="btn btn-danger btn-sm"
              onClick={() => props.onChange(items.filter((_, i) => i !== index))}
            >
              Remove
            </button>
          </div>
          <SchemaField
            {...props}
            schema={itemSchema}
            name={props.name}
            label=""
            required
            value={item}
            onChange={(v) => setItem(index, v)}
          />
        </div>
      ))}
      <div>
        <button
          type="button"
          className="btn btn-secondary btn-sm"
          onClick={() => props.onChange([...items, initialValue(props.doc, itemSchema)])}
        >
          Add {props.label.toLowerCase().replace(/s$/, "")}
        </button>
      </div>
    </fieldset>
  );
}

/** One field of any schema: scalars, enums, lists of rows, nested objects. */
export function SchemaField(props: FieldProps) {
  const schema = resolveSchema(props.doc, props.schema);
  const kind = typeOf(schema);
  if (kind === "array") return <ListField {...props} schema={schema} />;
  if (kind === "object" && schema.properties) {
    const value = (props.value ?? {}) as Record<string, unknown>;
    const fields = Object.entries(schema.properties).filter(([key]) => !MANAGED.has(key));
    const body = (
      <div className="form-grid">
        {fields.map(([key, prop]) => {
          const resolved = resolveSchema(props.doc, prop);
          const wide = ["array", "object"].includes(typeOf(resolved)) || LONG_TEXT.has(key);
          return (
            <div key={key} className={wide ? "wide" : ""}>
              <SchemaField
                doc={props.doc}
                schema={resolved}
                name={key}
                label={humanize(key)}
                required={schema.required?.includes(key) ?? false}
                value={value[key]}
                onChange={(v) => props.onChange({ ...value, [key]: v })}
              />
            </div>
          );
        })}
      </div>
    );
    return props.label ? (
      <fieldset>
        <legend>{props.label}</legend>
        {body}
      </fieldset>
    ) : (
      body
    );
  }
  if (kind === "object") return <JsonField {...props} schema={schema} />;
  if (kind === "any") return <ScalarField {...props} schema={schema} kind="string" />;
  return <ScalarField {...props} schema={schema} kind={kind} />;
}

/** Drops empty optional values so the API applies its defaults. */
export function pruneEmpty(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(pruneEmpty);
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      if (inner === undefined || inner === "") continue;
      out[key] = pruneEmpty(inner);
    }
    return out;
  }
  return value;
}
