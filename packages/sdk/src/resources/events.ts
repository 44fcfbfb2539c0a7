import type { BodyOf, QueryOf, ResultOf } from "../operation-types.js";
import { iteratePages, type Page } from "../paging.js";
import { segment, type Transport } from "../transport.js";

export type EventSummary = ResultOf<"listEvents">["data"][number];
export type EventQuery = QueryOf<"listEvents">;

/** `client.events`: events, their attempts and steps, replays and dry runs. */
export function eventsResource(transport: Transport) {
  const path = (id: string, action = "") => `/api/events/${segment(id)}${action}`;
  const list = async (query: EventQuery = {}): Promise<Page<EventSummary>> => {
    const { data } = await transport.request<ResultOf<"listEvents">>("GET", "/api/events", {
      query,
    });
    return { items: data.data, total: data.total, page: data.page, limit: data.limit };
  };
  return {
    list,
    /** Every matching event, page by page (newest first). */
    iterate: (query: EventQuery = {}) =>
      iteratePages((page) => list({ ...query, ...page }), {
        ...(query.page === undefined ? {} : { page: query.page }),
        ...(query.limit === undefined ? {} : { limit: query.limit }),
      }),
    get: async (id: string) =>
      (await transport.request<ResultOf<"getEvent">>("GET", path(id))).data,
    deliveries: async (id: string) =>
      (await transport.request<ResultOf<"listEventDeliveries">>("GET", path(id, "/deliveries")))
        .data,
    steps: async (id: string) =>
      (await transport.request<ResultOf<"listEventSteps">>("GET", path(id, "/steps"))).data,
    replay: async (id: string) =>
      (await transport.request<ResultOf<"replayEvent">>("POST", path(id, "/replay"))).data,
    cancel: async (id: string) =>
      (await transport.request<ResultOf<"cancelEvent">>("POST", path(id, "/cancel"))).data,
    /** Replays every failed event of a webhook (`POST /api/events/replay-all`). */
    replayAll: async (webhookId: string) =>
      (
        await transport.request<ResultOf<"replayAllEvents">>("POST", "/api/events/replay-all", {
          query: { webhookId },
        })
      ).data,
    /** Dry-runs an event through a canvas snapshot. */
    timeTravel: async (id: string, body: BodyOf<"timeTravelEvent">) =>
      (
        await transport.request<ResultOf<"timeTravelEvent">>("POST", path(id, "/time-travel"), {
          body,
        })
      ).data,
    types: async (query: QueryOf<"listEventTypes"> = {}) =>
      (await transport.request<ResultOf<"listEventTypes">>("GET", "/api/events/types", { query }))
        .data,
    stats: async (query: QueryOf<"getEventStats"> = {}) =>
      (await transport.request<ResultOf<"getEventStats">>("GET", "/api/events/stats", { query }))
        .data,
    latency: async (query: QueryOf<"getEventLatency"> = {}) =>
      (
        await transport.request<ResultOf<"getEventLatency">>("GET", "/api/events/latency", {
          query,
        })
      ).data,
    contractHealth: async (webhookId: string, query: QueryOf<"getContractHealth"> = {}) =>
      (
        await transport.request<ResultOf<"getContractHealth">>(
          "GET",
          path(webhookId, "/contract-health"),
          { query },
        )
      ).data,
  };
}
