import { useId } from "react";
import {
  initialValue,
  type JsonSchema,
  type OpenApiDocument,
  resolveSchema,
  typeOf,
} from "./json-schema";

/** Fields the canvas sets itself (edges), never typed into a form. */
const MANAGED = new Set(["inputNodes"]);
const LONG_TEXT = new Set(["template", "body", "document", "systemPrompt", "promptTemplate"]);

interface FieldProps {
  doc: OpenApiDocument;
  schema: JsonSchema;
  name: string;
  label: string;
  required: boolean;
  value: unknown;
  onChange: (value: unknown) => void;
}

function humanize(name: string): string {
  const words = name.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function Label({
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

function ScalarField(props: FieldProps & { kind: string }) {
  const id = useId();
  const { schema } = props;
  if (props.kind === "boolean") {
    return (
      <label className="check">
        <input
          type="checkbox"
          checked={props.value === true}
          onChange={(e) => props.onChange(e.target.checked)}
        />
        {props.label}
      </label>
    );
  }
  let control: React.ReactNode;
  if (schema.enum) {
    control = (
      <select
        id={id}
        value={String(props.value ?? "")}
        onChange={(e) => props.onChange(e.target.value)}
      >
        {!props.required && <option value="">—</option>}
        {schema.enum.map((option) => (
          <option key={String(option)} value={String(option)}>
            {String(option)}
          </option>
        ))}
      </select>
    );
  } else if (props.kind === "number" || props.kind === "integer") {
    control = (
      <input
        id={id}
        type="number"
        required={props.required}
        min={schema.minimum}
        max={schema.maximum}
        step={props.kind === "integer" ? 1 : "any"}
        value={typeof props.value === "number" ? props.value : ""}
        onChange={(e) => props.onChange(e.target.value === "" ? undefined : Number(e.target.value))}
      />
    );
  } else if (LONG_TEXT.has(props.name) || (schema.maxLength ?? 0) > 4000) {
    control = (
      <textarea
        id={id}
        required={props.required}
        value={String(props.value ?? "")}
        onChange={(e) => props.onChange(e.target.value)}
      />
    );
  } else {
    control = (
      <input
        id={id}
        required={props.required}
        value={props.value === undefined || props.value === null ? "" : String(props.value)}
        onChange={(e) => props.onChange(e.target.value)}
      />
    );
  }
  return (
    <div className="field">
      <Label id={id} label={props.label} required={props.required} schema={schema} />
      {control}
    </div>
  );
}

function ListField(props: FieldProps) {
  const items = Array.isArray(props.value) ? props.value : [];
  const itemSchema = resolveSchema(props.doc, props.schema.items);
  const id = useId();
  if (typeOf(itemSchema) === "string" && !itemSchema.enum) {
    return (
      <div className="field">
        <Label
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

function JsonField(props: FieldProps) {
  const id = useId();
  const text =
    typeof props.value === "string" ? props.value : JSON.stringify(props.value ?? {}, null, 2);
  return (
    <div className="field">
      <Label
        id={id}
        label={`${props.label} (JSON)`}
        required={props.required}
        schema={props.schema}
      />
      <textarea
        id={id}
        defaultValue={text}
        onBlur={(e) => {
          try {
            props.onChange(JSON.parse(e.target.value));
          } catch {
            props.onChange(e.target.value);
          }
        }}
      />
    </div>
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
