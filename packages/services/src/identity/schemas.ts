import { describeZodError, ValidationError } from "@hookflow/domain";
import { z } from "zod";
import { SCOPES } from "../actor.js";

export const Email = z.string().trim().toLowerCase().max(320).email("Invalid email address");
export const Password = z
  .string()
  .min(8, "must be at least 8 characters")
  .max(1024, "must be at most 1024 characters");
export const DisplayName = z.string().trim().min(1).max(200);
export const Role = z.enum(["owner", "admin", "member"]);
export type Role = z.infer<typeof Role>;

export const CreateUserAccountInput = z.object({
  email: Email,
  password: Password,
  name: DisplayName.optional(),
});
export type CreateUserAccountInput = z.input<typeof CreateUserAccountInput>;

/** An origin as browsers send it: scheme, host and optional port, nothing after. */
const Origin = z
  .string()
  .trim()
  .transform((value) => value.replace(/\/+$/, ""))
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === "https:" || url.protocol === "http:") && url.origin === value;
    } catch {
      return false;
    }
  }, "must be an origin such as https://app.example.com");

export const ApiKeyFields = z.object({
  name: z.string().trim().min(1).max(200),
  scopes: z
    .array(z.enum(SCOPES))
    .min(1, "at least one scope is required")
    .transform((scopes) => [...new Set(scopes)]),
  allowedOrigins: z
    .array(Origin)
    .max(50)
    .default([])
    .transform((origins) => [...new Set(origins)]),
  organizationId: z.string().min(1).max(100).nullish(),
  expiresAt: z.iso.datetime({ offset: true }).nullish(),
});
export type ApiKeyFields = z.infer<typeof ApiKeyFields>;

/** Parses a verb's input, turning a schema failure into a 400 that names the field. */
export function parseInput<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const result = schema.safeParse(input);
  if (!result.success) throw new ValidationError(describeZodError(result.error));
  return result.data;
}
