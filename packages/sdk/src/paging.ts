/** One page of a list: its items, the total across pages, and where it was. */
export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  limit: number;
}

export interface PageQuery {
  /** 1-based (default 1). */
  page?: number;
  /** Items per page (the server's default when absent; at most 100). */
  limit?: number;
}

/** Reads `X-Total-Count`, or the items seen when the header is absent. */
function totalOf(response: Response, fallback: number): number {
  const header = response.headers.get("x-total-count");
  return header !== null && /^\d+$/.test(header) ? Number(header) : fallback;
}

/**
 * Every item of a paged list, fetched page by page as the loop asks for them: `for await (const
 * webhook of client.webhooks.iterate()) ...`. Stops after the last page (a short or empty page, or
 * the total reached). Items added meanwhile can shift pages (lists are newest first).
 */
export async function* iteratePages<T>(
  fetchPage: (query: Required<PageQuery>) => Promise<Page<T>>,
  options: PageQuery = {},
): AsyncGenerator<T, void, undefined> {
  const limit = options.limit ?? 100;
  let seen = 0;
  for (let page = options.page ?? 1; ; page++) {
    const result = await fetchPage({ page, limit });
    for (const item of result.items) yield item;
    seen += result.items.length;
    if (result.items.length < limit || seen >= result.total) return;
  }
}

/** A page of a list route that answers a plain array with the total in `X-Total-Count`. */
export function pageOfArray<T>(items: T[], response: Response, query: PageQuery): Page<T> {
  return {
    items,
    total: totalOf(response, items.length),
    page: query.page ?? 1,
    limit: query.limit ?? items.length,
  };
}
