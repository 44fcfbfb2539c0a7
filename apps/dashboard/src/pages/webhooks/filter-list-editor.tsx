import { FILTER_OPERATORS, type FilterOperator } from "../../api/enums";
import { SelectField, TextField } from "../../ui/fields";

export interface FilterRule {
  field: string;
  operator: FilterOperator;
  value: string;
}

/** Rows of field / operator / value, added and removed in place. */
export function FilterListEditor(props: {
  title: string;
  rules: FilterRule[];
  onChange: (rules: FilterRule[]) => void;
}) {
  const update = (index: number, patch: Partial<FilterRule>) =>
    props.onChange(props.rules.map((rule, i) => (i === index ? { ...rule, ...patch } : rule)));
  return (
    <div className="stack">
      <div className="spread">
        <h3 style={{ margin: 0 }}>{props.title}</h3>
        <button
          type="button"
          className="btn btn-secondary btn-sm"
          onClick={() => props.onChange([...props.rules, { field: "", operator: "eq", value: "" }])}
        >
          Add rule
        </button>
      </div>
      {props.rules.length === 0 && (
        <p className="muted small" style={{ margin: 0 }}>
          No rules: every event passes.
        </p>
      )}
      {props.rules.map((rule, index) => (
        <div
          key={index}
          className="form-grid"
          style={{ gridTemplateColumns: "1fr 140px 1fr auto", alignItems: "end" }}
        >
          <TextField
            label={`Field ${index + 1}`}
            value={rule.field}
            placeholder="data.status"
            onChange={(field) => update(index, { field })}
          />
          <SelectField
            label="Operator"
            options={FILTER_OPERATORS}
            value={rule.operator}
            onChange={(operator) => update(index, { operator: operator as FilterRule["operator"] })}
          />
          <TextField
            label="Value"
            value={rule.value}
            onChange={(value) => update(index, { value })}
          />
          <button
            type="button"
            className="btn btn-danger btn-sm"
            aria-label={`Remove rule ${index + 1}`}
            onClick={() => props.onChange(props.rules.filter((_, i) => i !== index))}
          >
            Remove
          </button>
        </div>
      ))}
    </div>
  );
}
