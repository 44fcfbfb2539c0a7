import type { BodyOf, ItemOf, QueryOf, ResultOf } from "../operation-types.js";
import { iteratePages, type Page, type PageQuery, pageOfArray } from "../paging.js";
import { segment, type Transport } from "../transport.js";
import { streamWebhook, type WebhookStreamOptions } from "../webhook-stream.js";

export type Webhook = ItemOf<"listWebhooks">;

/** `client.webhooks`: the webhooks of the acting context. */
export function webhooksResource(transport: Transport) {
  const path = (id: string, action = "") => `/api/webhooks/${segment(id)}${action}`;
  const list = async (query: PageQuery = {}): Promise<Page<Webhook>> => {
    const { data, response } = await transport.request<ResultOf<"listWebhooks">>(
      "GET",
      "/api/webhooks",
      { query: { ...(query satisfies QueryOf<"listWebhooks">) } },
    );
    return pageOfArray(data, response, query);
  };
  return {
    list,
    /** Every webhook, page by page: `for await (const webhook of client.webhooks.iterate())`. */
    iterate: (query: PageQuery = {}) => iteratePages(list, query),
    create: async (body: BodyOf<"createWebhook">) =>
      (await transport.request<ResultOf<"createWebhook">>("POST", "/api/webhooks", { body })).data,
    get: async (id: string) =>
      (await transport.request<ResultOf<"getWebhook">>("GET", path(id))).data,
    update: async (id: string, body: BodyOf<"updateWebhook">) =>
      (await transport.request<ResultOf<"updateWebhook">>("PATCH", path(id), { body })).data,
    delete: async (id: string): Promise<void> => {
      await transport.request("DELETE", path(id));
    },
    toggleActive: async (id: string) =>
      (await transport.request<ResultOf<"toggleWebhookActive">>("POST", path(id, "/toggle-active")))
        .data,
    rotateToken: async (id: string) =>
      (await transport.request<ResultOf<"rotateWebhookToken">>("POST", path(id, "/rotate-token")))
        .data,
    rotateSigningSecret: async (id: string) =>
      (
        await transport.request<ResultOf<"rotateWebhookSigningSecret">>(
          "POST",
          path(id, "/rotate-signing-secret"),
        )
      ).data,
    /** A token for the webhook's live stream (EventSource: `?token=`), valid 5 minutes. */
    streamToken: async (id: string) =>
      (
        await transport.request<ResultOf<"createWebhookStreamToken">>(
          "POST",
          path(id, "/stream-token"),
        )
      ).data,
    /**
     * The webhook's new events and their steps as they happen:
     * `for await (const message of client.webhooks.stream(id)) ...` (renews its token itself).
     */
    stream: (id: string, options: WebhookStreamOptions = {}) =>
      streamWebhook(transport, id, options),
    /** Sends a test event through the webhook (`POST /api/webhooks/{id}/test`). */
    sendTest: async (id: string, body: BodyOf<"sendTestEvent">) =>
      (await transport.request<ResultOf<"sendTestEvent">>("POST", path(id, "/test"), { body }))
        .data,
  };
}
