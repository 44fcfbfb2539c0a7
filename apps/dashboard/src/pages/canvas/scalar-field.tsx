import { useId } from "react";
import { FieldLabel } from "./field-label";
import { type FieldProps, LONG_TEXT } from "./field-props";

/** One value: a checkbox, a select (enum), a number, a textarea (long text) or a text input. */
export function ScalarField(props: FieldProps & { kind: string }) {
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
      <FieldLabel id={id} label={props.label} required={props.required} schema={schema} />
      {control}
    </div>
  );
}
