import { useMutation, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useSession } from "../../api/api-context";
import { call, messageOf, type Schemas } from "../../api/client";
import { StatusBadge } from "../../ui/badges";
import { timeAgo } from "../../ui/format";

export type TimeTravelReport = Schemas["TimeTravelReport"];
export type Snapshot = Schemas["CanvasSnapshot"];

/** Pick a snapshot and an event of the webhook, dry-run it, and hand the report to the canvas. */
export function TimeTravelPanel(props: {
  webhookId: string;
  snapshots: Snapshot[];
  onSnapshot: (snapshot: Snapshot | null) => void;
  onReport: (report: TimeTravelReport | null) => void;
}) {
  const { api, organizationId } = useSession();
  const [snapshotId, setSnapshotId] = useState("");
  const [eventId, setEventId] = useState("");
  const events = useQuery({
    queryKey: ["events", organizationId, "time-travel", props.webhookId],
    queryFn: () =>
      call(
        api.GET("/api/events", { params: { query: { webhookId: props.webhookId, limit: 25 } } }),
      ),
  });
  const run = useMutation({
    mutationFn: () =>
      call(
        api.POST("/api/events/{id}/time-travel", {
          params: { path: { id: eventId } },
          body: { snapshotId },
        }),
      ),
    onSuccess: (report) => props.onReport(report),
  });
  const chooseSnapshot = (id: string) => {
    setSnapshotId(id);
    props.onReport(null);
    props.onSnapshot(props.snapshots.find((s) => s.id === id) ?? null);
  };
  return (
    <section className="card stack" aria-labelledby="tt-h">
      <h2 id="tt-h" style={{ margin: 0 }}>
        Time travel
      </h2>
      <p className="muted small" style={{ margin: 0 }}>
        Replays a stored event through a saved snapshot, with no side effects.
      </p>
      <div className="field">
        <label htmlFor="tt-snapshot">Snapshot</label>
        <select
          id="tt-snapshot"
          value={snapshotId}
          onChange={(e) => chooseSnapshot(e.target.value)}
        >
          <option value="">Live graph (choose a snapshot)</option>
          {props.snapshots.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name} · {timeAgo(s.createdAt)}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="tt-event">Event</label>
        <select id="tt-event" value={eventId} onChange={(e) => setEventId(e.target.value)}>
          <option value="">Choose an event</option>
          {(events.data?.data ?? []).map((e) => (
            <option key={e.id} value={e.id}>
              {e.eventType ?? "untyped"} · {e.status} · {timeAgo(e.createdAt)}
            </option>
          ))}
        </select>
      </div>
      {run.error && (
        <div className="alert" role="alert">
          {messageOf(run.error)}
        </div>
      )}
      <button
        type="button"
        className="btn"
        disabled={!snapshotId || !eventId || run.isPending}
        onClick={() => run.mutate()}
      >
        {run.isPending ? "Running…" : "Run time travel"}
      </button>
      {run.data && (
        <div className="stack" aria-live="polite">
          <div className="row">
            <strong>Result</strong> <StatusBadge status={run.data.finalStatus} />
            <span className="muted small">{run.data.matchedNodes} nodes matched</span>
          </div>
          <ol className="timeline" aria-label="Time travel path">
            {run.data.steps.map((step, i) => (
              <li key={`${step.node}-${String(i)}`}>
                <div className="spread">
                  <span>
                    {step.name} <span className="muted small">({step.nodeType})</span>
                  </span>
                  <StatusBadge status={step.result} />
                </div>
                {(step.reason || step.error) && (
                  <span className="muted small">{step.error ?? step.reason}</span>
                )}
              </li>
            ))}
          </ol>
        </div>
      )}
    </section>
  );
}
