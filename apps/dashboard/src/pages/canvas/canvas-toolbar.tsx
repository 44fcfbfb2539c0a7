import { useState } from "react";
import type { NodeFamily } from "./node-families";

/** Add a node of any family, delete the selection, save the canvas as a snapshot. */
export function CanvasToolbar(props: {
  families: NodeFamily[];
  readOnly: boolean;
  selected: { kind: "node" | "edge"; id: string } | null;
  saving: boolean;
  onAdd: (family: NodeFamily) => void;
  onDelete: () => void;
  onSave: (name: string) => void;
}) {
  const [family, setFamily] = useState("");
  const [name, setName] = useState("");
  return (
    <div className="card spread" style={{ marginBottom: "1rem" }}>
      <div className="row">
        <label className="sr-only" htmlFor="add-family">
          Node family
        </label>
        <select
          id="add-family"
          value={family}
          onChange={(e) => setFamily(e.target.value)}
          disabled={props.readOnly}
          style={{ width: 220 }}
        >
          <option value="">Choose a node type…</option>
          {props.families.map((f) => (
            <option key={f.segment} value={f.segment}>
              {f.label}
            </option>
          ))}
        </select>
        <button
          type="button"
          className="btn"
          disabled={props.readOnly || !family}
          onClick={() => {
            const found = props.families.find((f) => f.segment === family);
            if (found) props.onAdd(found);
          }}
        >
          Add node
        </button>
        <button
          type="button"
          className="btn btn-danger"
          disabled={props.readOnly || !props.selected}
          onClick={props.onDelete}
        >
          {props.selected?.kind === "edge" ? "Disconnect" : "Delete node"}
        </button>
      </div>
      <form
        className="row"
        onSubmit={(e) => {
          e.preventDefault();
          props.onSave(name);
          setName("");
        }}
      >
        <label className="sr-only" htmlFor="snapshot-name">
          Snapshot name
        </label>
        <input
          id="snapshot-name"
          required
          placeholder="Snapshot name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          disabled={props.readOnly}
          style={{ width: 200 }}
        />
        <button
          type="submit"
          className="btn btn-secondary"
          disabled={props.readOnly || props.saving}
        >
          Save snapshot
        </button>
      </form>
    </div>
  );
}
