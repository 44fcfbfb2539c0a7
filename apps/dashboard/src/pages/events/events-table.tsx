import type { Schemas } from "../../api/client";
import { StatusBadge } from "../../ui/badges";
import { formatMs, timeAgo } from "../../ui/format";

type EventSummary = Schemas["EventSummary"];

/** Time from arrival to delivery, the latency a sender's event saw end to end. */
function timeToDeliver(e: EventSummary): string {
  if (!e.deliveredAt) return "—";
  return formatMs(new Date(e.deliveredAt).getTime() - new Date(e.createdAt).getTime());
}

interface RowProps {
  /** Webhook names by id (a row shows the id until they load). */
  names: Map<string, string>;
  selected: string | null;
  isFresh: (id: string) => boolean;
  onSelect: (id: string) => void;
}

/** One page of events; a row opens its event. */
export function EventsTable(props: RowProps & { events: EventSummary[] }) {
  const { events, ...row } = props;
  return (
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
          {events.map((e) => (
            <EventRow key={e.id} event={e} {...row} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function EventRow(props: RowProps & { event: EventSummary }) {
  const { event: e, onSelect } = props;
  return (
    <tr
      className={`clickable ${props.isFresh(e.id) ? "fresh" : ""}`}
      aria-selected={props.selected === e.id}
      onClick={() => onSelect(e.id)}
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
        <button type="button" className="btn btn-ghost btn-sm" onClick={() => onSelect(e.id)}>
          {e.eventType ?? "untyped"}
        </button>
      </td>
      <td className="hide-narrow">{props.names.get(e.webhookId) ?? e.webhookId}</td>
      <td>{e.attemptCount}</td>
      <td className="hide-narrow">{e.lastStatusCode ?? "—"}</td>
      <td className="hide-narrow">{timeToDeliver(e)}</td>
      <td className="muted">{timeAgo(e.createdAt)}</td>
    </tr>
  );
}
