import type { Database } from "../../client.js";
import { eq } from "../../drizzle.js";
import { pipelineNodes } from "../../schema/index.js";
import { listOwnedPage, type RecordListScope } from "../owned-page.js";
import type { PipelineNodeRow } from "./node-rows.js";

export interface ListPipelineNodesOptions {
  family: string;
  scope: RecordListScope;
  offset: number;
  limit: number;
}

/** One page of a family's nodes in the scope, newest first, and the scope's total. */
export function listPipelineNodesPage(
  db: Database,
  options: ListPipelineNodesOptions,
): Promise<{ rows: PipelineNodeRow[]; total: number }> {
  const { family, ...page } = options;
  return listOwnedPage(db, pipelineNodes, { ...page, where: eq(pipelineNodes.family, family) });
}
