import type { ApiApp } from "../../http/api-app.js";
import type { ApiServices } from "../../services.js";
import { registerCreateCanvasSnapshot } from "./create.js";
import { registerDeleteCanvasSnapshot } from "./delete.js";
import { registerGetCanvasSnapshot } from "./get.js";
import { registerListCanvasSnapshots } from "./list.js";
import { registerUpdateCanvasSnapshot } from "./update.js";

/** Canvas snapshots (docs/decisions.md, "Node families and canvas"): layouts with the graph they showed, frozen. */
export function registerCanvasSnapshotRoutes(app: ApiApp, services: ApiServices): void {
  registerListCanvasSnapshots(app, services);
  registerCreateCanvasSnapshot(app, services);
  registerGetCanvasSnapshot(app, services);
  registerUpdateCanvasSnapshot(app, services);
  registerDeleteCanvasSnapshot(app, services);
}
