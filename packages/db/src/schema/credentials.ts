import { index, pgTable, text, timestamp } from "../drizzle.js";
import { organizations, users } from "./identity.js";

/**
 * Stored credentials of integrations (OAuth tokens, SMTP, bearer, basic, MongoDB). `data` is the
 * type's JSON sealed whole by the key ring (`enc:v1:`, authenticated with
 * `credentials.data:<id>`), never stored or returned in clear. Nodes name a credential by id.
 */
export const credentials = pgTable(
  "credentials",
  {
    id: text("id").primaryKey(),
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    organizationId: text("organization_id").references(() => organizations.id, {
      onDelete: "cascade",
    }),
    name: text("name").notNull(),
    /** A CredentialType of @hookflow/domain. */
    type: text("type").notNull(),
    data: text("data").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("credentials_owner_idx").on(t.ownerId, t.createdAt),
    index("credentials_org_idx").on(t.organizationId, t.createdAt),
  ],
);
export type CredentialRow = typeof credentials.$inferSelect;
