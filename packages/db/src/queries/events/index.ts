export * from "./event-rows.js";
export * from "./event-scope.js";
export * from "./event-stats.js";
export * from "./event-timeline.js";
export * from "./event-transitions.js";
export * from "./find-event.js";
export * from "./list-events.js";
