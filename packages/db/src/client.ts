import type Postgres from "postgres";
import { drizzle, type PostgresJsDatabase, postgres } from "./drizzle.js";
import * as schema from "./schema/index.js";

export type Database = PostgresJsDatabase<typeof schema>;

export interface DbHandle {
  db: Database;
  /** The raw postgres.js client, for the few statements drizzle does not express well. */
  sql: Postgres.Sql;
  close: () => Promise<void>;
}

export interface CreateDbOptions {
  url: string;
  max?: number;
  /** Application name shown in pg_stat_activity. */
  applicationName?: string;
}

export function createDb(options: CreateDbOptions): DbHandle {
  const sql = postgres(options.url, {
    max: options.max ?? 10,
    idle_timeout: 30,
    connect_timeout: 10,
    onnotice: () => {},
    connection: { application_name: options.applicationName ?? "hookflow" },
  });
  const db = drizzle(sql, { schema });
  return { db, sql, close: () => sql.end({ timeout: 5 }) };
}
