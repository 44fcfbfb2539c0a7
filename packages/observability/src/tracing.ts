import { type Span, SpanStatusCode, type Tracer, trace } from "@opentelemetry/api";

/**
 * Spans through the pipeline use the OpenTelemetry API only; an operator who registers an SDK
 * (for example with `node --import @opentelemetry/auto-instrumentations-node/register`) gets them
 * exported, and without one they cost next to nothing.
 */
export function getTracer(role: string): Tracer {
  return trace.getTracer(`hookflow-${role}`);
}

export async function withSpan<T>(
  tracer: Tracer,
  name: string,
  attributes: Record<string, string | number | boolean>,
  fn: (span: Span) => Promise<T>,
): Promise<T> {
  return tracer.startActiveSpan(name, { attributes }, async (span) => {
    try {
      return await fn(span);
    } catch (error) {
      span.recordException(error as Error);
      span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
      throw error;
    } finally {
      span.end();
    }
  });
}
