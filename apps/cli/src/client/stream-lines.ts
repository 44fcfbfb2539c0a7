import type { WebhookStreamMessage } from "@hookflow/sdk";

const time = () => new Date().toISOString().slice(11, 23);

/** One human line per webhook stream message (`hookflow events tail`). */
export function describeStreamMessage(message: WebhookStreamMessage): string {
  switch (message.type) {
    case "event":
      return `${time()} ${message.eventId} started`;
    case "step": {
      const node = message.nodeName ?? message.nodeType;
      const detail = [
        message.statusCode === undefined ? "" : String(message.statusCode),
        message.durationMs === undefined ? "" : `${Math.round(message.durationMs)} ms`,
        message.error ?? "",
      ]
        .filter(Boolean)
        .join(", ");
      return `${time()} ${message.eventId}   ${node} ${message.status}${detail ? ` (${detail})` : ""}`;
    }
    case "done":
      return `${time()} ${message.eventId} done: ${message.body.deliveryStatus} (${message.status})`;
  }
}
