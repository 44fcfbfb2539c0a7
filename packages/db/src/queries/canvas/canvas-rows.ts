import type { canvasSnapshots } from "../../schema/index.js";

export type CanvasSnapshotRow = typeof canvasSnapshots.$inferSelect;
export type NewCanvasSnapshotRow = typeof canvasSnapshots.$inferInsert;
/** Columns a snapshot update writes (ids and owners never change). */
export type CanvasSnapshotPatch = Partial<
  Pick<NewCanvasSnapshotRow, "name" | "nodes" | "edges" | "graph">
> & { updatedAt: Date };

/** The webhook fields a frozen graph keeps: enough to run and name it, never a secret. */
export interface GraphWebhookRow {
  id: string;
  ownerId: string;
  organizationId: string | null;
  name: string;
  targetUrl: string;
  isActive: boolean;
  payloadFilters: Array<{ field: string; operator: string; value?: string | undefined }>;
}
