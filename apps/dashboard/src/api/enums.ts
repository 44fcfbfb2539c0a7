import type { operations } from "@hookflow/sdk";
import type { Schemas } from "./client";

/**
 * Every member of the union `T` as a list the UI can iterate: the compiler rejects a list that
 * misses a member or names an unknown one, so the API's types stay the one source of each enum.
 */
function everyOf<T extends string>() {
  return <const L extends readonly T[]>(
    list: L & ([Exclude<T, L[number]>] extends [never] ? unknown : never),
  ): L => list;
}

export type EventStatus = Schemas["EventSummary"]["status"];
export type FilterOperator = NonNullable<
  Schemas["CreateWebhookInput"]["payloadFilters"]
>[number]["operator"];
export type KeyScope =
  operations["createApiKey"]["requestBody"]["content"]["application/json"]["scopes"][number];

export const EVENT_STATUSES = everyOf<EventStatus>()([
  "pending",
  "retrying",
  "delivered",
  "failed",
  "filtered",
  "cancelled",
]);

export const FILTER_OPERATORS = everyOf<FilterOperator>()([
  "eq",
  "neq",
  "contains",
  "gt",
  "lt",
  "exists",
  "not_exists",
  "in",
  "not_in",
]);

export const KEY_SCOPES = everyOf<KeyScope>()([
  "webhooks:read",
  "webhooks:write",
  "events:read",
  "events:write",
  "deliveries:read",
  "canvas:read",
  "canvas:write",
  "alerts:read",
  "alerts:write",
  "telemetry:read",
]);
