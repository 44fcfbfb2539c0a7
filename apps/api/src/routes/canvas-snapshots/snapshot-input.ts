import { z } from "@hono/zod-openapi";

/** Canvas layout limits: generous for any hand-built canvas, bounded for the database. */
const MAX_CANVAS_NODES = 2000;
const MAX_CANVAS_EDGES = 5000;

const RecordId = z.string().trim().min(1).max(100);

/**
 * A canvas node in the canvas node form: `id` (`webhook-<id>` for a webhook), `type`, `position`,
 * `data`. `data.webhookId` / `data.nodeId` name the record it shows; other data keys (label,
 * isActive, ...) are kept as sent.
 */
export const CanvasNode = z
  .looseObject({
    id: z.string().min(1).max(200),
    type: z.string().min(1).max(100),
    position: z.object({ x: z.number(), y: z.number() }),
    data: z
      .looseObject({ webhookId: RecordId.optional(), nodeId: RecordId.optional() })
      .default({}),
  })
  .openapi("CanvasNode");
export type CanvasNode = z.infer<typeof CanvasNode>;

/** An edge between two canvas nodes (by canvas node id); other keys are kept as sent. */
export const CanvasEdge = z
  .looseObject({
    id: z.string().min(1).max(200).optional(),
    source: z.string().min(1).max(200),
    target: z.string().min(1).max(200),
  })
  .openapi("CanvasEdge");
export type CanvasEdge = z.infer<typeof CanvasEdge>;

const SnapshotName = z.string().trim().min(1).max(200);
const Nodes = z.array(CanvasNode).max(MAX_CANVAS_NODES);
const Edges = z.array(CanvasEdge).max(MAX_CANVAS_EDGES);

export const CreateCanvasSnapshotInput = z
  .object({
    name: SnapshotName,
    nodes: Nodes,
    edges: Edges,
  })
  .openapi("CreateCanvasSnapshotInput");
export type CreateCanvasSnapshotInput = z.infer<typeof CreateCanvasSnapshotInput>;

export const UpdateCanvasSnapshotInput = z
  .object({ name: SnapshotName.optional(), nodes: Nodes.optional(), edges: Edges.optional() })
  .openapi("UpdateCanvasSnapshotInput");
export type UpdateCanvasSnapshotInput = z.infer<typeof UpdateCanvasSnapshotInput>;
