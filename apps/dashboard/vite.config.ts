import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// The console is served by the api role at `/` (same origin as `/api`), so it needs no proxy
// in production; `pnpm --filter @hookflow/dashboard dev` proxies `/api` to a local `hookflow start`.
export default defineConfig({
  plugins: [react()],
  build: { outDir: "dist", emptyOutDir: true, sourcemap: false, chunkSizeWarningLimit: 900 },
  server: { proxy: { "/api": process.env.HOOKFLOW_URL ?? "http://localhost:3000" } },
});
