export * from "./schedule-queue.js";
