import type { operations } from "./generated/schema.js";

/** The operationIds of the OpenAPI document. */
export type OperationId = keyof operations;

type JsonOf<R> = R extends { content: { "application/json": infer T } } ? T : undefined;

/** The JSON of an operation's success answer (200, 201 or 202); undefined for 204. */
export type ResultOf<O extends OperationId> = operations[O]["responses"] extends infer R
  ? 200 extends keyof R
    ? JsonOf<R[200]>
    : 201 extends keyof R
      ? JsonOf<R[201]>
      : 202 extends keyof R
        ? JsonOf<R[202]>
        : undefined
  : never;

/** The JSON request body of an operation. */
export type BodyOf<O extends OperationId> = operations[O] extends {
  requestBody?: { content: { "application/json": infer B } };
}
  ? B
  : never;

/** The query parameters of an operation. */
export type QueryOf<O extends OperationId> = operations[O]["parameters"] extends {
  query?: infer Q;
}
  ? NonNullable<Q>
  : never;

/** One element of an operation's array answer. */
export type ItemOf<O extends OperationId> = ResultOf<O> extends Array<infer T> ? T : never;
