/**
 * The event's payload as the node graph takes it: its body parsed as JSON (the body text if it is
 * somehow not JSON). The stored body is the exact text received; ingress accepted it only as JSON.
 */
export function payloadOf(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
}
