import { useSearchParams } from "wouter";
import { type EventFilters, filtersOf } from "./event-filters";

/** The URL's query for a set of filters; values at their defaults are left out. */
function searchOf(filters: EventFilters): URLSearchParams {
  const out = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) {
    if (value !== "" && !(key === "page" && value === 1) && !(key === "limit" && value === 25))
      out.set(key, String(value));
  }
  return out;
}

/**
 * The events page's filters, which live in its URL. `update` applies a change to them;
 * `linkedEventId` is the event a link asked to open (`?event=`).
 */
export function useEventFilters() {
  const [params, setParams] = useSearchParams();
  const filters = filtersOf(params);
  const update = (patch: Partial<EventFilters>) => {
    setParams(searchOf({ ...filters, ...patch }));
  };
  return { filters, update, linkedEventId: params.get("event") };
}
