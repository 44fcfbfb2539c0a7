import type { Schemas } from "../../api/client";

type EventPage = Schemas["EventPage"];

/** The count of matching events, and Previous and Next over their pages. */
export function EventsPager(props: { page: EventPage; onPage: (page: number) => void }) {
  const { page, onPage } = props;
  return (
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
          onClick={() => onPage(page.page - 1)}
        >
          Previous
        </button>
        <button
          type="button"
          className="btn btn-secondary btn-sm"
          disabled={page.page * page.limit >= page.total}
          onClick={() => onPage(page.page + 1)}
        >
          Next
        </button>
      </div>
    </div>
  );
}
