import { ValidationError } from "@hookflow/domain";

/**
 * A canvas node in the canvas node form: `id` (`webhook-<id>` for a webhook), `type`, `position`,
 * `data`. `data.webhookId` / `data.nodeId` name the record it shows; other data keys (label,
 * isActive, ...) are kept as sent.
 */
export interface CanvasNode {
  id: string;
  type: string;
  position: { x: number; y: number };
  data: { webhookId?: string | undefined; nodeId?: string | undefined; [key: string]: unknown };
  [key: string]: unknown;
}

/** An edge between two canvas nodes (by canvas node id); other keys are kept as sent. */
export interface CanvasEdge {
  id?: string | undefined;
  source: string;
  target: string;
  [key: string]: unknown;
}

/** Every edge joins two nodes of the canvas. */
export function checkCanvasEdges(nodes: readonly CanvasNode[], edges: readonly CanvasEdge[]): void {
  const ids = new Set(nodes.map((node) => node.id));
  edges.forEach((edge, i) => {
    for (const end of ["source", "target"] as const) {
      if (!ids.has(edge[end])) {
        throw new ValidationError(`edges.${i}.${end}: Unknown canvas node ${edge[end]}`);
      }
    }
  });
}
