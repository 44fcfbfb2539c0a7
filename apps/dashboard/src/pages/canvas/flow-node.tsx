import { Handle, type Node, type NodeProps, Position } from "@xyflow/react";
import { StatusBadge } from "../../ui/badges";

interface FlowNodeData extends Record<string, unknown> {
  label: string;
  kind: string;
  isWebhook: boolean;
  orphan: boolean;
  result?: string;
  detail?: string;
  dimmed?: boolean;
}

export type FlowNodeType = Node<FlowNodeData, "hookflow">;

/** A canvas node: its family, its name, and (time travel) the result the event had there. */
function FlowNode({ data, selected }: NodeProps<FlowNodeType>) {
  const classes = [
    "flow-node",
    data.isWebhook ? "webhook" : "",
    data.orphan ? "orphan" : "",
    selected ? "selected" : "",
    data.result ? `result-${data.result}` : "",
    data.dimmed ? "dimmed" : "",
  ];
  return (
    <div className={classes.join(" ")} data-testid={`node-${data.label}`}>
      {!data.isWebhook && (
        <Handle type="target" position={Position.Top} aria-label={`Input of ${data.label}`} />
      )}
      <div className="kind">{data.orphan ? `${data.kind} · unattached` : data.kind}</div>
      <div className="title">{data.label}</div>
      {data.result && (
        <div className="result">
          <StatusBadge status={data.result} />
          {data.detail && <div className="muted small">{data.detail}</div>}
        </div>
      )}
      <Handle type="source" position={Position.Bottom} aria-label={`Output of ${data.label}`} />
    </div>
  );
}

export const nodeTypes = { hookflow: FlowNode };
