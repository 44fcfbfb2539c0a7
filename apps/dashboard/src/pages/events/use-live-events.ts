import { type QueryClient, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useSession } from "../../api/api-context";
import { type Api, call, type Schemas } from "../../api/client";

type Step = Schemas["EventStep"];
type State = "off" | "connecting" | "streaming" | "polling";

interface StreamOptions {
  api: Api;
  queryClient: QueryClient;
  organizationId: string | null;
  webhookId: string;
  onState: (state: State) => void;
}

/**
 * Follows one webhook's live stream (SSE): a new event refreshes the list, each step is appended
 * to that event's steps as it happens, `done` refreshes the event. When the token expires the
 * stream resumes with a new one from the last event it saw. Returns the closer.
 */
function followWebhook(options: StreamOptions): () => void {
  const { api, queryClient, organizationId, webhookId } = options;
  let source: EventSource | null = null;
  let closed = false;
  let lastEventId: string | null = null;
  let retry: ReturnType<typeof setTimeout> | undefined;
  const refresh = (key: string, eventId?: string) =>
    void queryClient.invalidateQueries({
      queryKey: eventId ? [key, organizationId, eventId] : [key],
    });

  const open = async () => {
    try {
      const { token } = await call(
        api.POST("/api/webhooks/{id}/stream-token", { params: { path: { id: webhookId } } }),
      );
      if (closed) return;
      const query = new URLSearchParams({ token });
      if (lastEventId) query.set("lastEventId", lastEventId);
      source = new EventSource(`/api/webhooks/${encodeURIComponent(webhookId)}/stream?${query}`);
      source.onopen = () => options.onState("streaming");
      source.addEventListener("event", (message) => {
        lastEventId = message.lastEventId || lastEventId;
        refresh("events");
      });
      source.addEventListener("step", (message) => {
        const step = JSON.parse(message.data) as Step;
        queryClient.setQueryData<Step[]>(["steps", organizationId, step.eventId], (steps) => [
          ...(steps ?? []),
          { ...step, at: step.at ?? new Date().toISOString() },
        ]);
        refresh("event", step.eventId);
      });
      source.addEventListener("done", (message) => {
        const { eventId } = JSON.parse(message.data) as { eventId: string };
        refresh("events");
        refresh("event", eventId);
        refresh("steps", eventId);
        refresh("attempts", eventId);
      });
      source.addEventListener("expired", () => reopen(0));
      source.onerror = () => {
        // A closed stream (token refused, server gone) is reopened with a new token.
        if (source?.readyState === EventSource.CLOSED) reopen(2000);
      };
    } catch {
      options.onState("polling");
      reopen(5000);
    }
  };
  const reopen = (delayMs: number) => {
    source?.close();
    source = null;
    if (closed) return;
    options.onState("connecting");
    retry = setTimeout(() => void open(), delayMs);
  };
  options.onState("connecting");
  void open();
  return () => {
    closed = true;
    clearTimeout(retry);
    source?.close();
  };
}

const LINES: Record<State, string> = {
  off: "",
  connecting: "Connecting to the live stream…",
  streaming: "Live: new events and their steps stream in as they happen.",
  polling: "Live: refreshing every 2 seconds. Choose a webhook to stream its events and steps.",
};

/**
 * The live view of the events page. With a webhook chosen it follows that webhook's stream;
 * across all webhooks (one stream each would be needed) it refreshes the list every 2 s.
 */
export function useLiveEvents(options: { enabled: boolean; webhookId: string | null }): string {
  const { api, organizationId } = useSession();
  const queryClient = useQueryClient();
  const [state, setState] = useState<State>("off");
  useEffect(() => {
    if (!options.enabled) {
      setState("off");
      return;
    }
    if (options.webhookId) {
      return followWebhook({
        api,
        queryClient,
        organizationId,
        webhookId: options.webhookId,
        onState: setState,
      });
    }
    setState("polling");
    const timer = setInterval(
      () => void queryClient.invalidateQueries({ queryKey: ["events"] }),
      2000,
    );
    return () => clearInterval(timer);
  }, [options.enabled, options.webhookId, api, queryClient, organizationId]);
  return LINES[state];
}
