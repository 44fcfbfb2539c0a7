export * from "./target-records.js";
