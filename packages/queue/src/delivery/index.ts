export * from "./deliver-job.js";
export * from "./delivery-queues.js";
export * from "./enqueue-deliveries.js";
export * from "./lanes.js";
export * from "./park-resume.js";
export * from "./requeue-events.js";
