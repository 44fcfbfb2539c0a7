import { type FormEvent, useState } from "react";
import { messageOf } from "../../api/client";
import type { OpenApiDocument } from "./json-schema";
import type { NodeFamily } from "./node-families";
import { pruneEmpty, SchemaField } from "./schema-form";

/** A form built from a family's create or update schema. */
export function NodeForm(props: {
  doc: OpenApiDocument;
  family: NodeFamily;
  mode: "create" | "update";
  initial: unknown;
  pending: boolean;
  error: unknown;
  onSubmit: (body: unknown) => void;
  onCancel?: () => void;
}) {
  const [value, setValue] = useState<unknown>(props.initial);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    props.onSubmit(pruneEmpty(value));
  };
  return (
    <form className="stack" onSubmit={submit} aria-label={`${props.family.label} settings`}>
      {props.error ? (
        <div className="alert" role="alert">
          {messageOf(props.error)}
        </div>
      ) : null}
      <SchemaField
        doc={props.doc}
        schema={props.mode === "create" ? props.family.createSchema : props.family.updateSchema}
        name=""
        label=""
        required
        value={value}
        onChange={setValue}
      />
      <div className="actions" style={{ justifyContent: "flex-end" }}>
        {props.onCancel && (
          <button type="button" className="btn btn-secondary" onClick={props.onCancel}>
            Cancel
          </button>
        )}
        <button type="submit" className="btn" disabled={props.pending}>
          {props.mode === "create" ? `Add ${props.family.label.toLowerCase()}` : "Save node"}
        </button>
      </div>
    </form>
  );
}
