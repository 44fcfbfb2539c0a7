import { randomBytes } from "node:crypto";
import { createDb, type DbHandle, dropDatabase, migrateDatabase } from "@hookflow/db";

const BASE_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

export interface TestDatabase extends DbHandle {
  url: string;
  /** Closes the pool and drops the database. */
  destroy: () => Promise<void>;
}

/** A fresh, migrated database of its own, so suites run in parallel and leave nothing behind. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const url = new URL(BASE_URL);
  url.pathname = `/hf_test_${randomBytes(6).toString("hex")}`;
  const dbUrl = url.toString();
  await migrateDatabase({ url: dbUrl });
  const handle = createDb({ url: dbUrl, max: 5, applicationName: "hookflow-test" });
  return {
    ...handle,
    url: dbUrl,
    destroy: async () => {
      await handle.close();
      await dropDatabase(dbUrl);
    },
  };
}
