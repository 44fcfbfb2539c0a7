import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";

/**
 * Keeps the events list current while the live view is on: refreshes the list and the open
 * event's steps every second. Returns a line describing what it does.
 */
export function useLiveEvents(options: { enabled: boolean; webhookId: string | null }): string {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!options.enabled) return;
    const timer = setInterval(() => {
      void queryClient.invalidateQueries({ queryKey: ["events"] });
    }, 1000);
    return () => clearInterval(timer);
  }, [options.enabled, queryClient]);
  return "New events appear as they arrive.";
}
