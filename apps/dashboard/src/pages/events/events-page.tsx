import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { useSearchParams } from "wouter";
import { useSession } from "../../api/api-context";
import { call, messageOf, type Schemas } from "../../api/client";
import { StatusBadge } from "../../ui/badges";
import { formatMs, timeAgo } from "../../ui/format";
import { EmptyState, QueryView } from "../../ui/states";
import { useToast } from "../../ui/toast";
import { useWebhooks } from "../webhooks/webhook-queries";
import { EventDrawer } from "./event-drawer";
import { EventFilterBar, type EventFilters, filtersOf } from "./event-filters";
import { useLiveEvents } from "./use-live-events";

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

/** Time from arrival to delivery, the latency a sender's event saw end to end. */
function timeToDeliver(e: EventSummary): string {
  if (!e.deliveredAt) return "—";
  return formatMs(new Date(e.deliveredAt).getTime() - new Date(e.createdAt).getTime());
}

export function EventsPage() {
  const { api, organizationId } = useSession();
  const queryClient = useQueryClient();
  const toast = useToast();
  const [params, setParams] = useSearchParams();
  const filters = filtersOf(params);
  const [selected, setSelected] = useState<string | null>(params.get("event"));
  const [live, setLive] = useState(true);
  const seen = useRef<Set<string> | null>(null);
  const webhooks = useWebhooks();
  const events = useQuery({
    queryKey: ["events", organizationId, filters],
    queryFn: () => call(api.GET("/api/events", { params: { query: queryOf(filters) } })),
    placeholderData: (previous) => previous,
  });
  // The stream of the chosen webhook, else of the open event's webhook (its steps stream in).
  const openEvent = events.data?.data.find((e) => e.id === selected);
  const streamed = filters.webhookId || openEvent?.webhookId || null;
  const liveState = useLiveEvents({ enabled: live, webhookId: streamed });
  const replayAll = useMutation({
    mutationFn: () =>
      call(
        api.POST("/api/events/replay-all", { params: { query: { webhookId: filters.webhookId } } }),
      ),
    onSuccess: (r) => {
      toast(`${r.queued} failed events queued again`);
      void queryClient.invalidateQueries({ queryKey: ["events"] });
    },
    onError: (e) => toast(messageOf(e), "error"),
  });
  const update = (patch: Partial<EventFilters>) => {
    const next = { ...filters, ...patch };
    const out = new URLSearchParams();
    for (const [key, value] of Object.entries(next)) {
      if (value !== "" && !(key === "page" && value === 1) && !(key === "limit" && value === 25))
        out.set(key, String(value));
    }
    setParams(out);
  };
  const names = new Map((webhooks.data ?? []).map((w) => [w.id, w.name]));
  // Rows not seen before (after the first load) flash once: new events as they arrive.
  const previous = seen.current;
  if (events.data) seen.current = new Set(events.data.data.map((e) => e.id));
  const isFresh = (id: string) => previous !== null && !previous.has(id);
  return (
    <>
      <div className="page-head">
        <div>
          <h1>Events</h1>
          <p>Everything your webhooks received, with each event's steps and delivery attempts.</p>
        </div>
        <div className="actions">
          <label className="check">
            <input type="checkbox" checked={live} onChange={(e) => setLive(e.target.checked)} />
            {live ? <span className="live-dot" aria-hidden="true" /> : null} Live
          </label>
          {filters.webhookId && (
            <button
              type="button"
              className="btn btn-secondary"
              onClick={() =>
                window.confirm("Replay every failed event of this webhook?") && replayAll.mutate()
              }
              disabled={replayAll.isPending}
            >
              Replay all failed
            </button>
          )}
        </div>
      </div>
      <div className="card">
        <EventFilterBar filters={filters} webhooks={webhooks.data ?? []} onChange={update} />
        {live && (
          <p className="muted small" style={{ margin: "0.6rem 0 0" }}>
            {liveState}
          </p>
        )}
      </div>
      <div className="card">
        <QueryView query={events} label="Loading events…">
          {(page) =>
            page.data.length === 0 ? (
              <EmptyState title="No events match">
                Send a test event from a webhook, or post JSON to its ingress URL.
              </EmptyState>
            ) : (
              <>
                <div className="table-wrap">
                  <table aria-label="Events">
                    <thead>
                      <tr>
                        <th>Status</th>
                        <th>Type</th>
                        <th className="hide-narrow">Webhook</th>
                        <th>Attempts</th>
                        <th className="hide-narrow">Last HTTP</th>
                        <th className="hide-narrow">Time to deliver</th>
                        <th>Received</th>
                      </tr>
                    </thead>
                    <tbody>
                      {page.data.map((e) => (
                        <tr
                          key={e.id}
                          className={`clickable ${isFresh(e.id) ? "fresh" : ""}`}
                          aria-selected={selected === e.id}
                          onClick={() => setSelected(e.id)}
                        >
                          <td>
                            <StatusBadge status={e.status} />
                            {e.awaitingApproval && (
                              <span className="badge info" style={{ marginLeft: 4 }}>
                                approval
                              </span>
                            )}
                          </td>
                          <td>
                            <button
                              type="button"
                              className="btn btn-ghost btn-sm"
                              onClick={() => setSelected(e.id)}
                            >
                              {e.eventType ?? "untyped"}
                            </button>
                          </td>
                          <td className="hide-narrow">{names.get(e.webhookId) ?? e.webhookId}</td>
                          <td>{e.attemptCount}</td>
                          <td className="hide-narrow">{e.lastStatusCode ?? "—"}</td>
                          <td className="hide-narrow">{timeToDeliver(e)}</td>
                          <td className="muted">{timeAgo(e.createdAt)}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
                <div className="spread" style={{ marginTop: "0.8rem" }}>
                  <span className="muted small">
                    {page.total} {page.total === 1 ? "event" : "events"} · page {page.page} of{" "}
                    {Math.max(1, Math.ceil(page.total / page.limit))}
                  </span>
                  <div className="actions">
                    <button
                      type="button"
                      className="btn btn-secondary btn-sm"
                      disabled={page.page <= 1}
                      onClick={() => update({ page: page.page - 1 })}
                    >
                      Previous
                    </button>
                    <button
                      type="button"
                      className="btn btn-secondary btn-sm"
                      disabled={page.page * page.limit >= page.total}
                      onClick={() => update({ page: page.page + 1 })}
                    >
                      Next
                    </button>
                  </div>
                </div>
              </>
            )
          }
        </QueryView>
      </div>
      {selected && (
        <EventDrawer
          eventId={selected}
          streamed={live && streamed !== null && liveState.includes("stream in")}
          onClose={() => setSelected(null)}
        />
      )}
    </>
  );
}
