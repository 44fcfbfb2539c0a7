/** The page's title, its live switch and, with one webhook chosen, its replay of failed events. */
export function EventsPageHead(props: {
  live: boolean;
  onLiveChange: (live: boolean) => void;
  webhookId: string;
  onReplayAll: () => void;
  replaying: boolean;
}) {
  const { live, webhookId } = props;
  return (
    <div className="page-head">
      <div>
        <h1>Events</h1>
        <p>Everything your webhooks received, with each event's steps and delivery attempts.</p>
      </div>
      <div className="actions">
        <label className="check">
          <input
            type="checkbox"
            checked={live}
            onChange={(e) => props.onLiveChange(e.target.checked)}
          />
          {live ? <span className="live-dot" aria-hidden="true" /> : null} Live
        </label>
        {webhookId && (
          <button
            type="button"
            className="btn btn-secondary"
            onClick={() =>
              window.confirm("Replay every failed event of this webhook?") && props.onReplayAll()
            }
            disabled={props.replaying}
          >
            Replay all failed
          </button>
        )}
      </div>
    </div>
  );
}
