import { useQuery } from "@tanstack/react-query";
import { useSession } from "../../api/api-context";
import { call, type Schemas } from "../../api/client";

export type Webhook = Schemas["Webhook"];

/** The acting workspace's webhooks (first 100, newest first). */
export function useWebhooks() {
  const { api, organizationId } = useSession();
  return useQuery({
    queryKey: ["webhooks", organizationId],
    queryFn: () => call(api.GET("/api/webhooks", { params: { query: { limit: 100 } } })),
  });
}

export function useWebhook(id: string) {
  const { api, organizationId } = useSession();
  return useQuery({
    queryKey: ["webhook", organizationId, id],
    queryFn: () => call(api.GET("/api/webhooks/{id}", { params: { path: { id } } })),
  });
}
