/**
 * The MongoDB driver, loaded on the first mongo action: a worker that runs none never loads it
 * (docs/decisions.md, "Loading dependencies").
 */
type MongoDriver = typeof import("mongodb");

let driver: Promise<MongoDriver> | undefined;

export function loadMongoDriver(): Promise<MongoDriver> {
  driver ??= import("mongodb");
  return driver;
}
