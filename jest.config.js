// One jest run for the whole workspace: unit tests beside the code, integration suites in
// apps/*/test. TypeScript is compiled by SWC; workspace packages resolve to their sources through
// the "@hookflow/source" export condition, so tests never need a stale build.
/** @type {import('jest').Config} */
const swc = [
  "@swc/jest",
  {
    jsc: { parser: { syntax: "typescript" }, target: "es2022" },
    module: { type: "es6" },
    sourceMaps: "inline",
  },
];

export default {
  testEnvironment: "node",
  testEnvironmentOptions: { customExportConditions: ["@hookflow/source", "node", "node-addons"] },
  extensionsToTreatAsEsm: [".ts"],
  transform: { "^.+\\.ts$": swc },
  moduleNameMapper: { "^(\\.{1,2}/.*)\\.js$": "$1" },
  testMatch: ["<rootDir>/{apps,packages}/*/{src,test}/**/*.test.ts"],
  testPathIgnorePatterns: ["/node_modules/", "/dist/"],
  testTimeout: 30000,
  maxWorkers: 2,
};
