export * from "./json-template.js";
