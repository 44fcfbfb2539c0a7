import type { ReactNode } from "react";
import { messageOf } from "../api/client";

export function Loading({ label = "Loading…" }: { label?: string }) {
  return (
    <div className="loading" role="status">
      <span className="spinner" aria-hidden="true" /> {label}
    </div>
  );
}

export function ErrorState({ error, retry }: { error: unknown; retry?: () => void }) {
  return (
    <div className="alert" role="alert">
      <div className="spread">
        <span>{messageOf(error)}</span>
        {retry && (
          <button type="button" className="btn btn-secondary btn-sm" onClick={retry}>
            Try again
          </button>
        )}
      </div>
    </div>
  );
}

export function EmptyState(props: { title: string; children?: ReactNode; action?: ReactNode }) {
  return (
    <div className="empty">
      <strong>{props.title}</strong>
      {props.children && <div>{props.children}</div>}
      {props.action}
    </div>
  );
}

/** Renders a query's three states: loading, error (with retry) and its data. */
export function QueryView<T>(props: {
  query: { data: T | undefined; error: unknown; isPending: boolean; refetch: () => unknown };
  children: (data: T) => ReactNode;
  label?: string;
}) {
  const { query } = props;
  if (query.isPending) return <Loading label={props.label} />;
  if (query.error || query.data === undefined) {
    return <ErrorState error={query.error} retry={() => void query.refetch()} />;
  }
  return <>{props.children(query.data)}</>;
}
