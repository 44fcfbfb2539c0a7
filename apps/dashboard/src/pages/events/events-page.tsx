import { useRef, useState } from "react";
import type { Schemas } from "../../api/client";
import { EmptyState, QueryView } from "../../ui/states";
import { useWebhooks } from "../webhooks/webhook-queries";
import { EventDrawer } from "./event-drawer";
import { EventFilterBar } from "./event-filters";
import { useEvents, useReplayAllFailed } from "./event-queries";
import { EventsPageHead } from "./events-page-head";
import { EventsPager } from "./events-pager";
import { EventsTable } from "./events-table";
import { useEventFilters } from "./use-event-filters";
import { useLiveEvents } from "./use-live-events";

type EventSummary = Schemas["EventSummary"];

export function EventsPage() {
  const { filters, update, linkedEventId } = useEventFilters();
  const [selected, setSelected] = useState<string | null>(linkedEventId);
  const [live, setLive] = useState(true);
  const webhooks = useWebhooks();
  const events = useEvents(filters);
  // The stream of the chosen webhook, else of the open event's webhook (its steps stream in).
  const openEvent = events.data?.data.find((e) => e.id === selected);
  const streamed = filters.webhookId || openEvent?.webhookId || null;
  const liveState = useLiveEvents({ enabled: live, webhookId: streamed });
  const replayAll = useReplayAllFailed(filters.webhookId);
  const names = new Map((webhooks.data ?? []).map((w) => [w.id, w.name]));
  const isFresh = useFreshRows(events.data?.data);
  return (
    <>
      <EventsPageHead
        live={live}
        onLiveChange={setLive}
        webhookId={filters.webhookId}
        onReplayAll={() => replayAll.mutate()}
        replaying={replayAll.isPending}
      />
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
                <EventsTable
                  events={page.data}
                  names={names}
                  selected={selected}
                  isFresh={isFresh}
                  onSelect={setSelected}
                />
                <EventsPager page={page} onPage={(n) => update({ page: n })} />
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

/** Rows not seen before (after the first load) flash once: new events as they arrive. */
function useFreshRows(rows: EventSummary[] | undefined): (id: string) => boolean {
  const seen = useRef<Set<string> | null>(null);
  const previous = seen.current;
  if (rows) seen.current = new Set(rows.map((e) => e.id));
  return (id) => previous !== null && !previous.has(id);
}
