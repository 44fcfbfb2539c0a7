export * from "./list-mail.js";
export * from "./record-mail.js";
