import { useId, useState } from "react";
import type { GraphNode, InputRef } from "./graph-model";

/**
 * The node's inputs as a list with remove buttons and a picker to add one: connecting and
 * disconnecting without a pointer (the canvas's drag does the same).
 */
export function InputsEditor(props: {
  node: GraphNode;
  candidates: GraphNode[];
  pending: boolean;
  onChange: (inputs: InputRef[]) => void;
}) {
  const id = useId();
  const [choice, setChoice] = useState("");
  const inputs = props.node.record?.inputNodes ?? [];
  const labelOf = (input: InputRef) =>
    props.candidates.find((c) => c.recordId === input.nodeId)?.label ?? input.nodeId;
  const free = props.candidates.filter(
    (c) => c.id !== props.node.id && !inputs.some((i) => i.nodeId === c.recordId),
  );
  return (
    <fieldset>
      <legend>Inputs</legend>
      {inputs.length === 0 && <span className="muted small">Nothing feeds this node yet.</span>}
      <ul className="timeline" aria-label={`Inputs of ${props.node.label}`}>
        {inputs.map((input) => (
          <li key={`${input.nodeType}-${input.nodeId}`} className="spread">
            <span>
              {labelOf(input)} <span className="muted small">({input.nodeType})</span>
            </span>
            <button
              type="button"
              className="btn btn-danger btn-sm"
              disabled={props.pending}
              aria-label={`Disconnect ${labelOf(input)}`}
              onClick={() => props.onChange(inputs.filter((i) => i !== input))}
            >
              Disconnect
            </button>
          </li>
        ))}
      </ul>
      <div className="row">
        <label className="sr-only" htmlFor={id}>
          Add an input
        </label>
        <select
          id={id}
          value={choice}
          onChange={(e) => setChoice(e.target.value)}
          style={{ flex: 1 }}
        >
          <option value="">Connect from…</option>
          {free.map((c) => (
            <option key={c.id} value={c.id}>
              {c.label} ({c.nodeType})
            </option>
          ))}
        </select>
        <button
          type="button"
          className="btn btn-secondary btn-sm"
          disabled={!choice || props.pending}
          onClick={() => {
            const from = free.find((c) => c.id === choice);
            if (from)
              props.onChange([...inputs, { nodeType: from.nodeType, nodeId: from.recordId }]);
            setChoice("");
          }}
        >
          Connect
        </button>
      </div>
    </fieldset>
  );
}
