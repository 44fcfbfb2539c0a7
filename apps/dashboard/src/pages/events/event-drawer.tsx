import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { useSession } from "../../api/api-context";
import { call, messageOf, type Schemas } from "../../api/client";
import { StatusBadge } from "../../ui/badges";
import { JsonView } from "../../ui/copy";
import { formatMs, timeAgo } from "../../ui/format";
import { EmptyState, QueryView } from "../../ui/states";
import { useToast } from "../../ui/toast";

const FINAL = new Set(["delivered", "failed", "filtered", "cancelled"]);
type Tab = "payload" | "steps" | "attempts" | "headers";

type Step = Schemas["EventStep"];

/** One row per node visit: a `running` step is dropped once the same node has finished. */
function collapseSteps(steps: Step[]): Step[] {
  return steps.filter(
    (step, i) =>
      step.status !== "running" ||
      !steps
        .slice(i + 1)
        .some((later) => later.nodeId === step.nodeId && later.status !== "running"),
  );
}

/** `poll`: refetch while the event runs, when no live stream appends its steps. */
function StepsList({ eventId, live, poll }: { eventId: string; live: boolean; poll: boolean }) {
  const { api, organizationId } = useSession();
  const steps = useQuery({
    queryKey: ["steps", organizationId, eventId],
    queryFn: () => call(api.GET("/api/events/{id}/steps", { params: { path: { id: eventId } } })),
    refetchInterval: poll ? 1000 : false,
  });
  return (
    <QueryView query={steps} label="Loading steps…">
      {(list) =>
        list.length === 0 ? (
          <EmptyState title={live ? "No steps yet" : "No node steps"}>
            {live
              ? "Steps appear here as the event runs through its graph."
              : "This event went straight to delivery: its webhook has no nodes. See Attempts."}
          </EmptyState>
        ) : (
          <ol className="timeline" aria-label="Steps">
            {collapseSteps(list).map((step, i) => (
              <li key={`${step.nodeId}-${step.status}-${String(i)}`}>
                <div className="spread">
                  <strong>
                    {step.nodeName ?? step.nodeType}{" "}
                    <span className="muted small">({step.nodeType})</span>
                  </strong>
                  <StatusBadge status={step.status} />
                </div>
                <span className="muted small">
                  {new Date(step.at).toLocaleTimeString()} · {formatMs(step.durationMs)}
                  {step.statusCode ? ` · HTTP ${step.statusCode}` : ""}
                </span>
                {step.error && (
                  <span className="small" style={{ color: "var(--bad)" }}>
                    {step.error}
                  </span>
                )}
                {step.lastPayload !== undefined && (
                  <details className="payload">
                    <summary>Output</summary>
                    <JsonView
                      label={`Output of ${step.nodeName ?? step.nodeType}`}
                      value={step.lastPayload}
                    />
                  </details>
                )}
              </li>
            ))}
          </ol>
        )
      }
    </QueryView>
  );
}

function AttemptsList({ eventId, live }: { eventId: string; live: boolean }) {
  const { api, organizationId } = useSession();
  const attempts = useQuery({
    queryKey: ["attempts", organizationId, eventId],
    queryFn: () =>
      call(api.GET("/api/events/{eventId}/deliveries", { params: { path: { eventId } } })),
    refetchInterval: live ? 2000 : false,
  });
  return (
    <QueryView query={attempts} label="Loading attempts…">
      {(list) =>
        list.length === 0 ? (
          <EmptyState title="No delivery attempts yet" />
        ) : (
          <ol className="timeline" aria-label="Delivery attempts">
            {list.map((a) => (
              <li key={a.id}>
                <div className="spread">
                  <strong>
                    Attempt {a.attempt}{" "}
                    {a.isAdditionalTarget && <span className="badge plain">additional target</span>}
                  </strong>
                  <StatusBadge
                    status={a.success ? "success" : "failed"}
                    label={a.statusCode ? `HTTP ${a.statusCode}` : "no answer"}
                  />
                </div>
                <span className="mono small">{a.targetUrl}</span>
                <span className="muted small">
                  {timeAgo(a.attemptedAt)} · {formatMs(a.latencyMs)}
                  {a.error ? ` · ${a.error}` : ""}
                </span>
                {a.responseBody && (
                  <JsonView label={`Response of attempt ${a.attempt}`} value={a.responseBody} />
                )}
              </li>
            ))}
          </ol>
        )
      }
    </QueryView>
  );
}

/** One event: payload, steps, attempts and headers, with replay and cancel. */
export function EventDrawer(props: { eventId: string; streamed: boolean; onClose: () => void }) {
  const { eventId, onClose } = props;
  const { api, organizationId } = useSession();
  const queryClient = useQueryClient();
  const toast = useToast();
  const [tab, setTab] = useState<Tab>("payload");
  const closeRef = useRef<HTMLButtonElement>(null);
  useEffect(() => closeRef.current?.focus(), []);
  const event = useQuery({
    queryKey: ["event", organizationId, eventId],
    queryFn: () => call(api.GET("/api/events/{id}", { params: { path: { id: eventId } } })),
    refetchInterval: (q) => (q.state.data && FINAL.has(q.state.data.status) ? false : 1500),
  });
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: ["event"] });
    void queryClient.invalidateQueries({ queryKey: ["events"] });
    void queryClient.invalidateQueries({ queryKey: ["steps"] });
  };
  const params = { params: { path: { eventId } } };
  const replay = useMutation({
    mutationFn: () => call(api.POST("/api/events/{eventId}/replay", params)),
    onSuccess: () => {
      toast("Replay queued");
      refresh();
    },
    onError: (e) => toast(messageOf(e), "error"),
  });
  const cancel = useMutation({
    mutationFn: () => call(api.POST("/api/events/{eventId}/cancel", params)),
    onSuccess: () => {
      toast("Event cancelled");
      refresh();
    },
    onError: (e) => toast(messageOf(e), "error"),
  });
  const live = event.data ? !FINAL.has(event.data.status) : false;
  return (
    <div
      className="drawer"
      role="dialog"
      aria-modal="false"
      aria-labelledby="event-title"
      onKeyDown={(e) => e.key === "Escape" && onClose()}
    >
      <div className="drawer-head">
        <div>
          <h2 id="event-title" style={{ margin: 0 }}>
            {event.data?.eventType ?? "Event"}
          </h2>
          <div className="mono small muted">{eventId}</div>
          {event.data && (
            <div className="row" style={{ marginTop: "0.4rem" }}>
              <StatusBadge status={event.data.status} />
              {event.data.awaitingApproval && <span className="badge info">awaiting approval</span>}
              {event.data.delayed && <span className="badge info">delayed</span>}
              {event.data.awaitingMerge && <span className="badge info">awaiting merge</span>}
              <span className="muted small">{timeAgo(event.data.createdAt)}</span>
            </div>
          )}
        </div>
        <div className="actions">
          {event.data && FINAL.has(event.data.status) && (
            <button
              type="button"
              className="btn btn-secondary btn-sm"
              onClick={() => replay.mutate()}
              disabled={replay.isPending}
            >
              Replay
            </button>
          )}
          {event.data && (event.data.status === "pending" || event.data.status === "retrying") && (
            <button
              type="button"
              className="btn btn-danger btn-sm"
              onClick={() => cancel.mutate()}
              disabled={cancel.isPending}
            >
              Cancel
            </button>
          )}
          <button ref={closeRef} type="button" className="btn btn-ghost btn-sm" onClick={onClose}>
            Close
          </button>
        </div>
      </div>
      <div className="drawer-body">
        <div className="tabs" role="tablist" aria-label="Event details">
          {(["payload", "steps", "attempts", "headers"] as Tab[]).map((t) => (
            <button
              key={t}
              type="button"
              role="tab"
              aria-selected={tab === t}
              onClick={() => setTab(t)}
            >
              {t[0]?.toUpperCase()}
              {t.slice(1)}
            </button>
          ))}
        </div>
        <QueryView query={event} label="Loading event…">
          {(e) => (
            <div role="tabpanel" aria-label={tab}>
              {tab === "payload" && (
                <div className="stack">
                  {e.lastError && <div className="alert">{e.lastError}</div>}
                  <JsonView label="Payload" value={e.payload} />
                </div>
              )}
              {tab === "steps" && (
                <StepsList eventId={eventId} live={live} poll={live && !props.streamed} />
              )}
              {tab === "attempts" && <AttemptsList eventId={eventId} live={live} />}
              {tab === "headers" && <JsonView label="Headers" value={e.headers} />}
            </div>
          )}
        </QueryView>
      </div>
    </div>
  );
}
