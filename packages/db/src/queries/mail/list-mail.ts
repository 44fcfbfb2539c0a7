import type { Database } from "../../client.js";
import { and, count, desc, eq } from "../../drizzle.js";
import { mailOutbox } from "../../schema/index.js";
import type { MailSourceType } from "./record-mail.js";

export type MailRow = typeof mailOutbox.$inferSelect;

export interface MailPage {
  items: MailRow[];
  total: number;
}

/** The mail one node produced (every status), newest first. */
export async function listMailOfSource(
  db: Database,
  source: { sourceType: MailSourceType; sourceId: string },
  paging: { page: number; limit: number },
): Promise<MailPage> {
  const where = and(
    eq(mailOutbox.sourceType, source.sourceType),
    eq(mailOutbox.sourceId, source.sourceId),
  );
  const [items, totals] = await Promise.all([
    db
      .select()
      .from(mailOutbox)
      .where(where)
      .orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.id))
      .limit(paging.limit)
      .offset((paging.page - 1) * paging.limit),
    db.select({ total: count() }).from(mailOutbox).where(where),
  ]);
  return { items, total: totals[0]?.total ?? 0 };
}
