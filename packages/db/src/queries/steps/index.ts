export * from "./list-event-steps.js";
