export * from "./canvas-rows.js";
export * from "./canvas-snapshots.js";
export * from "./recent-event-bodies.js";
