/**
 * drizzle-orm and postgres.js, loaded through CommonJS. Every module of this package takes them
 * from here, never from "drizzle-orm" itself (Biome refuses it elsewhere).
 *
 * Node's ES module loader reads the package scope of each file it loads, and drizzle-orm's
 * package.json is 179 KB for about 450 files: importing it as ES modules took 0.9 s and left
 * each process about 110 MB larger (a heap of 190 MB at its peak for 7 MB of live objects),
 * where `require` takes 0.3 s and 11 MB. docs/decisions.md, "Loading dependencies", has the
 * measurement. postgres.js comes through the same `require` so the process holds one copy of it
 * (drizzle's CommonJS driver requires it too).
 */
import { createRequire } from "node:module";
import type * as Core from "drizzle-orm";
import type * as PgCore from "drizzle-orm/pg-core";
import type * as PostgresJs from "drizzle-orm/postgres-js";
import type * as Migrator from "drizzle-orm/postgres-js/migrator";
import type Postgres from "postgres";

const load = createRequire(import.meta.url);

const core = load("drizzle-orm") as typeof Core;
const pgCore = load("drizzle-orm/pg-core") as typeof PgCore;
const postgresJs = load("drizzle-orm/postgres-js") as typeof PostgresJs;
const migrator = load("drizzle-orm/postgres-js/migrator") as typeof Migrator;

export const postgres = load("postgres") as typeof Postgres;

export const {
  and,
  asc,
  count,
  desc,
  eq,
  gt,
  gte,
  inArray,
  isNotNull,
  isNull,
  lt,
  ne,
  not,
  notExists,
  or,
  sql,
} = core;
export type { AnyColumn, SQL } from "drizzle-orm";

export const {
  alias,
  bigserial,
  boolean,
  doublePrecision,
  index,
  integer,
  json,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} = pgCore;
export type { PgColumn, PgDatabase, PgTable } from "drizzle-orm/pg-core";

export const { drizzle } = postgresJs;
export type { PostgresJsDatabase, PostgresJsQueryResultHKT } from "drizzle-orm/postgres-js";

export const { migrate } = migrator;
