export { luaScript } from "@hookflow/queue";
