export { type LuaScript, luaScript } from "@hookflow/queue";
