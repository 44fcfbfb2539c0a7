import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { dropDatabase, migrateDatabase } from "./migrate.js";

const base = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

function freshUrl(): string {
  const url = new URL(base);
  url.pathname = `/hf_migrate_${randomBytes(5).toString("hex")}`;
  return url.toString();
}

describe("migrateDatabase", () => {
  it("creates a missing database and applies every migration", async () => {
    const url = freshUrl();
    try {
      await migrateDatabase({ url });
      const sql = postgres(url, { max: 1 });
      const tables =
        await sql`select table_name from information_schema.tables where table_schema = 'public' order by 1`;
      await sql.end();
      expect(tables.map((row) => row.table_name)).toEqual(
        expect.arrayContaining([
          "users",
          "sessions",
          "organizations",
          "memberships",
          "api_keys",
          "webhooks",
          "events",
          "delivery_attempts",
        ]),
      );
    } finally {
      await dropDatabase(url);
    }
  });

  it("lets several replicas migrate at once", async () => {
    const url = freshUrl();
    try {
      await Promise.all([
        migrateDatabase({ url }),
        migrateDatabase({ url }),
        migrateDatabase({ url }),
      ]);
      const sql = postgres(url, { max: 1 });
      const [row] = await sql`select count(*)::int as n from drizzle.__drizzle_migrations`;
      await sql.end();
      expect(row?.n).toBeGreaterThanOrEqual(1);
    } finally {
      await dropDatabase(url);
    }
  });
});
