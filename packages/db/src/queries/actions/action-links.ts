import { and, count, inArray, ne, sql } from "drizzle-orm";
import type { Database } from "../../client.js";
import { pipelineNodes } from "../../schema/index.js";
import type { DbExecutor } from "../pipeline-nodes/node-rows.js";

/** Action nodes (of `families`) naming `inputId` among their inputNodes, other than `exceptId`. */
export async function countActionsLinkedTo(
  db: Database | DbExecutor,
  input: { inputId: string; families: readonly string[]; exceptId: string },
): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(pipelineNodes)
    .where(
      and(
        inArray(pipelineNodes.family, [...input.families]),
        sql`${pipelineNodes.inputNodes} @> ${JSON.stringify([{ nodeId: input.inputId }])}::jsonb`,
        ne(pipelineNodes.id, input.exceptId),
      ),
    );
  return row?.n ?? 0;
}
