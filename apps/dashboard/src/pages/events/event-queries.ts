import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useSession } from "../../api/api-context";
import { call, messageOf, type Schemas } from "../../api/client";
import { useToast } from "../../ui/toast";
import type { EventFilters } from "./event-filters";

type EventSummary = Schemas["EventSummary"];

function queryOf(f: EventFilters) {
  return {
    ...(f.webhookId ? { webhookId: f.webhookId } : {}),
    ...(f.status ? { status: f.status as EventSummary["status"] } : {}),
    ...(f.eventType ? { eventType: f.eventType } : {}),
    ...(f.dateFrom ? { dateFrom: f.dateFrom } : {}),
    ...(f.dateTo ? { dateTo: f.dateTo } : {}),
    page: f.page,
    limit: f.limit,
  };
}

/** The page of events the filters select; the last page stays shown while the next loads. */
export function useEvents(filters: EventFilters) {
  const { api, organizationId } = useSession();
  return useQuery({
    queryKey: ["events", organizationId, filters],
    queryFn: () => call(api.GET("/api/events", { params: { query: queryOf(filters) } })),
    placeholderData: (previous) => previous,
  });
}

/** Queues every failed event of a webhook again, then refreshes the lists. */
export function useReplayAllFailed(webhookId: string) {
  const { api } = useSession();
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: () =>
      call(api.POST("/api/events/replay-all", { params: { query: { webhookId } } })),
    onSuccess: (r) => {
      toast(`${r.queued} failed events queued again`);
      void queryClient.invalidateQueries({ queryKey: ["events"] });
    },
    onError: (e) => toast(messageOf(e), "error"),
  });
}
