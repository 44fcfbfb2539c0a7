import type { BSON, Document } from "mongodb";
import { type ActionExecutor, type ActionResult, permanentFailure } from "../action-types.js";
import { loadMongoDriver } from "../mongo-driver.js";

function parseDocument(
  bson: typeof BSON,
  text: string,
  field: string,
): { ok: true; doc: Document } | { ok: false; error: string } {
  try {
    const value = bson.EJSON.parse(text, { relaxed: true }) as unknown;
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      return { ok: false, error: `${field}: the rendered template is not a JSON object` };
    }
    return { ok: true, doc: value as Document };
  } catch {
    return { ok: false, error: `${field}: the rendered template is not Extended JSON` };
  }
}

/** A document without top-level operators becomes `$set` of it (`updateOne` takes operators). */
function asUpdate(doc: Document): Document {
  return Object.keys(doc).some((key) => key.startsWith("$")) ? doc : { $set: doc };
}

/** The driver's message without the connection URI or its password, should it quote them. */
function scrub(message: string, connectionUri: string): string {
  let out = message.replaceAll(connectionUri, "[connection URI]");
  const password = /^mongodb(?:\+srv)?:\/\/[^:@/]*:([^@/]+)@/.exec(connectionUri)?.[1];
  if (password)
    out = out.replaceAll(password, "****").replaceAll(decodeURIComponent(password), "****");
  return out;
}

/** Network errors and server selection timeouts are worth another try; the rest are not. */
function retryable(error: unknown): boolean {
  const name = (error as { name?: string }).name ?? "";
  return /Network|ServerSelection|Timeout|PoolCleared/.test(name);
}

/**
 * `mongo-actions`: `insertOne`, `updateOne` or `replaceOne` with the official driver, the
 * connection URI read from the action's `mongodb` credential; the document (and filter) are JSON
 * templates read as Extended JSON (`{"$date": …}`, `{"$oid": …}`).
 */
export const mongoActionExecutor: ActionExecutor<"mongoAction"> = {
  run: async ({ action, context, ports }): Promise<ActionResult> => {
    const { config } = action;
    const opened = await ports.openCredential(config.credentialId, action);
    if (!opened.ok) return permanentFailure(opened.error);
    if (opened.credential.type !== "mongodb") {
      return permanentFailure(`credential ${config.credentialId} is not a mongodb credential`);
    }
    const rendered = ports.render.json(config.document, context);
    if (!rendered.ok) return permanentFailure(`document: ${rendered.error}`);
    const { BSON: bson } = await loadMongoDriver();
    const document = parseDocument(bson, rendered.text, "document");
    if (!document.ok) return permanentFailure(document.error);
    let filter: Document = {};
    if (config.operation !== "insertOne") {
      const renderedFilter = ports.render.json(config.filter ?? "{}", context);
      if (!renderedFilter.ok) return permanentFailure(`filter: ${renderedFilter.error}`);
      const parsed = parseDocument(bson, renderedFilter.text, "filter");
      if (!parsed.ok) return permanentFailure(parsed.error);
      filter = parsed.doc;
    }
    const client = await ports.mongo.get(opened.credential.data.connectionUri);
    if (!client.ok) return permanentFailure(client.error);
    const collection = client.client.db(config.database).collection(config.collection);
    try {
      switch (config.operation) {
        case "insertOne": {
          const result = await collection.insertOne(document.doc);
          return { ok: true, response: JSON.stringify({ insertedId: String(result.insertedId) }) };
        }
        case "updateOne": {
          const result = await collection.updateOne(filter, asUpdate(document.doc));
          return {
            ok: true,
            response: JSON.stringify({
              matchedCount: result.matchedCount,
              modifiedCount: result.modifiedCount,
            }),
          };
        }
        case "replaceOne": {
          const result = await collection.replaceOne(filter, document.doc);
          return {
            ok: true,
            response: JSON.stringify({
              matchedCount: result.matchedCount,
              modifiedCount: result.modifiedCount,
            }),
          };
        }
      }
    } catch (error) {
      const message = scrub(
        (error as { message?: string }).message ?? String(error),
        opened.credential.data.connectionUri,
      );
      return { ok: false, retryable: retryable(error), error: `MongoDB: ${message.slice(0, 500)}` };
    }
  },
};
