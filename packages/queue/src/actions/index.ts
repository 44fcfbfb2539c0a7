export * from "./action-jobs.js";
