import type { PgDatabase, PostgresJsQueryResultHKT } from "../../drizzle.js";
import type * as schema from "../../schema/index.js";
import type { pipelineNodes } from "../../schema/index.js";

export type PipelineNodeRow = typeof pipelineNodes.$inferSelect;
export type NewPipelineNodeRow = typeof pipelineNodes.$inferInsert;
/** Columns a node update writes (ids, family and owners never change). */
export type PipelineNodePatch = Pick<NewPipelineNodeRow, "name" | "config" | "inputNodes"> & {
  updatedAt: Date;
};

/** The database or an open transaction: graph writes run their reads inside the transaction. */
export type DbExecutor = PgDatabase<PostgresJsQueryResultHKT, typeof schema>;

export type { RecordListScope } from "../owned-page.js";

/** Owner columns of a record, for visibility checks. */
export interface OwnedRow {
  id: string;
  ownerId: string;
  organizationId: string | null;
}
