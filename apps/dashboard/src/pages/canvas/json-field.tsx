import { useId } from "react";
import { FieldLabel } from "./field-label";
import type { FieldProps } from "./field-props";

/** An object without declared properties, edited as JSON (kept as text while it does not parse). */
export function JsonField(props: FieldProps) {
  const id = useId();
  const text =
    typeof props.value === "string" ? props.value : JSON.stringify(props.value ?? {}, null, 2);
  return (
    <div className="field">
      <FieldLabel
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
