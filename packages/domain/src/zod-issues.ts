import type { z } from "zod";

/** `"targetUrl: Invalid URL"`: the first issue, naming the field by its dotted path. */
export function describeZodError(error: z.ZodError): string {
  const issues = error.issues.slice(0, 5).map((issue) => {
    const path = issue.path.map(String).join(".");
    return path ? `${path}: ${issue.message}` : issue.message;
  });
  return issues.join("; ");
}
