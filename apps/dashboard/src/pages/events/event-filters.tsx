import { useQuery } from "@tanstack/react-query";
import { useSession } from "../../api/api-context";
import { call } from "../../api/client";
import { EVENT_STATUSES } from "../../api/enums";
import type { Webhook } from "../webhooks/webhook-queries";

export interface EventFilters {
  webhookId: string;
  status: string;
  eventType: string;
  dateFrom: string;
  dateTo: string;
  page: number;
  limit: number;
}

export function filtersOf(params: URLSearchParams): EventFilters {
  return {
    webhookId: params.get("webhookId") ?? "",
    status: params.get("status") ?? "",
    eventType: params.get("eventType") ?? "",
    dateFrom: params.get("dateFrom") ?? "",
    dateTo: params.get("dateTo") ?? "",
    page: Math.max(1, Number(params.get("page") ?? 1) || 1),
    limit: Math.min(100, Math.max(1, Number(params.get("limit") ?? 25) || 25)),
  };
}

/** Every filter of the events API: webhook, status, type, date range and page size. */
export function EventFilterBar(props: {
  filters: EventFilters;
  webhooks: Webhook[];
  onChange: (patch: Partial<EventFilters>) => void;
}) {
  const { api, organizationId } = useSession();
  const { filters } = props;
  const types = useQuery({
    queryKey: ["event-types", organizationId, filters.webhookId],
    queryFn: () =>
      call(
        api.GET("/api/events/types", {
          params: { query: filters.webhookId ? { webhookId: filters.webhookId } : {} },
        }),
      ),
  });
  const set = (key: keyof EventFilters) => (e: { target: { value: string } }) =>
    props.onChange({ [key]: e.target.value, page: 1 });
  return (
    <div
      className="form-grid"
      style={{ gridTemplateColumns: "repeat(auto-fit, minmax(150px, 1fr))" }}
    >
      <label className="field">
        <span>Webhook</span>
        <select value={filters.webhookId} onChange={set("webhookId")}>
          <option value="">All webhooks</option>
          {props.webhooks.map((w) => (
            <option key={w.id} value={w.id}>
              {w.name}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        <span>Status</span>
        <select value={filters.status} onChange={set("status")}>
          <option value="">Any status</option>
          {EVENT_STATUSES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        <span>Event type</span>
        <select value={filters.eventType} onChange={set("eventType")}>
          <option value="">Any type</option>
          {(types.data ?? []).map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        <span>From</span>
        <input type="date" value={filters.dateFrom} onChange={set("dateFrom")} />
      </label>
      <label className="field">
        <span>To</span>
        <input type="date" value={filters.dateTo} onChange={set("dateTo")} />
      </label>
      <label className="field">
        <span>Per page</span>
        <select value={String(filters.limit)} onChange={set("limit")}>
          {[15, 25, 50, 100].map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}
