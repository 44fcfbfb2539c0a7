import { type ReactNode, useId } from "react";

interface Base {
  label: string;
  hint?: ReactNode;
  className?: string;
}

function FieldLabel(props: Base & { id: string }) {
  return (
    <label htmlFor={props.id}>
      {props.label} {props.hint && <span className="hint">{props.hint}</span>}
    </label>
  );
}

export function TextField(
  props: Base & {
    value: string;
    onChange: (value: string) => void;
    type?: string;
    required?: boolean;
    placeholder?: string;
    multiline?: boolean;
  },
) {
  const id = useId();
  return (
    <div className={`field ${props.className ?? ""}`}>
      <FieldLabel id={id} {...props} />
      {props.multiline ? (
        <textarea
          id={id}
          value={props.value}
          required={props.required}
          placeholder={props.placeholder}
          onChange={(e) => props.onChange(e.target.value)}
        />
      ) : (
        <input
          id={id}
          type={props.type ?? "text"}
          value={props.value}
          required={props.required}
          placeholder={props.placeholder}
          onChange={(e) => props.onChange(e.target.value)}
        />
      )}
    </div>
  );
}

export function NumberField(
  props: Base & {
    value: number | undefined;
    onChange: (value: number | undefined) => void;
    min?: number;
    max?: number;
    step?: number;
  },
) {
  const id = useId();
  return (
    <div className={`field ${props.className ?? ""}`}>
      <FieldLabel id={id} {...props} />
      <input
        id={id}
        type="number"
        inputMode="decimal"
        min={props.min}
        max={props.max}
        step={props.step ?? 1}
        value={props.value ?? ""}
        onChange={(e) => props.onChange(e.target.value === "" ? undefined : Number(e.target.value))}
      />
    </div>
  );
}

export function SelectField(
  props: Base & { value: string; onChange: (value: string) => void; options: readonly string[] },
) {
  const id = useId();
  return (
    <div className={`field ${props.className ?? ""}`}>
      <FieldLabel id={id} {...props} />
      <select id={id} value={props.value} onChange={(e) => props.onChange(e.target.value)}>
        {props.options.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
    </div>
  );
}

export function CheckField(
  props: Base & { checked: boolean; onChange: (checked: boolean) => void },
) {
  return (
    <label className={`check ${props.className ?? ""}`}>
      <input
        type="checkbox"
        checked={props.checked}
        onChange={(e) => props.onChange(e.target.checked)}
      />
      {props.label} {props.hint && <span className="hint muted small">{props.hint}</span>}
    </label>
  );
}
