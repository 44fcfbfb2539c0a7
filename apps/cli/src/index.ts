export { dispatch } from "./cli.js";
export { parseStartArgs, ROLES, type Role } from "./commands/start-args.js";
export { composeFetch, type FetchHandler, type RouteTarget, routeOf } from "./compose-fetch.js";
export { NODE_FLAGS, WORKER_NODE_FLAGS, workerExecArgv } from "./node-flags.js";
