import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Receiver, startReceiver } from "@hookflow/testing";
import { type BrowserContext, chromium, type Page } from "playwright-core";
import { type HookflowUnderTest, startHookflow } from "../../cli/test/cli-process.js";

/** Debian's Chromium; `.ci/run` installs it when missing. Never a downloaded browser. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const ARTIFACTS = fileURLToPath(new URL("../test-artifacts/", import.meta.url));

const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export interface ConsoleUnderTest {
  hookflow: HookflowUnderTest;
  receiver: Receiver;
  context: BrowserContext;
  page: Page;
  /** Console errors, page errors and failed requests seen so far. */
  problems: string[];
  screenshot: (name: string) => Promise<string>;
  /** The axe-core violations of the page rated critical. */
  criticalViolations: () => Promise<Array<{ id: string; help: string; nodes: number }>>;
  stop: () => Promise<void>;
}

interface AxeViolation {
  id: string;
  help: string;
  impact: string;
  nodes: unknown[];
}
interface AxeRunner {
  run: (context: unknown) => Promise<{ violations: AxeViolation[] }>;
}

const axeSource = readFileSync(
  createRequire(import.meta.url).resolve("axe-core/axe.min.js"),
  "utf8",
);

/**
 * The real `hookflow start` (own database and Redis prefix), a real receiver, and a Chromium
 * with an empty profile of its own, its console watched for errors.
 */
export async function startConsoleUnderTest(): Promise<ConsoleUnderTest> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `No Chromium at ${CHROMIUM}: apt-get install -y chromium (or set CHROMIUM_PATH)`,
    );
  }
  const receiver = await startReceiver();
  const hookflow = await startHookflow({ HOOKFLOW_DELAY_SCALE: "0.01" });
  const profile = mkdtempSync(join(tmpdir(), "hookflow-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
    headless: true,
    baseURL: hookflow.base,
    viewport: { width: 1366, height: 860 },
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  page.on("response", (response) => {
    if (response.status() >= 400) {
      problems.push(`HTTP ${response.status()}: ${response.request().method()} ${response.url()}`);
    }
  });
  page.on("requestfailed", (request) => {
    // A request the page itself dropped (a stream closed on navigation) is no failure.
    if (request.failure()?.errorText === "net::ERR_ABORTED") return;
    problems.push(
      `request failed: ${request.method()} ${request.url()} ${request.failure()?.errorText}`,
    );
  });
  mkdirSync(ARTIFACTS, { recursive: true });
  return {
    hookflow,
    receiver,
    context,
    page,
    problems,
    screenshot: async (name) => {
      const path = join(ARTIFACTS, `${name}.png`);
      await page.screenshot({ path, fullPage: true });
      process.stdout.write(`screenshot: ${path}\n`);
      return path;
    },
    criticalViolations: async () => {
      // DevTools evaluation is not subject to the page's CSP (which allows no inline script).
      await page.evaluate(axeSource);
      return page.evaluate(async () => {
        // Runs in the page (the test's compiler options have no DOM types).
        const page = globalThis as unknown as { axe: AxeRunner; document: unknown };
        const result = await page.axe.run(page.document);
        return result.violations
          .filter((v) => v.impact === "critical")
          .map((v) => ({ id: v.id, help: v.help, nodes: v.nodes.length }));
      });
    },
    stop: async () => {
      await context.close().catch(() => undefined);
      rmSync(profile, { recursive: true, force: true });
      await hookflow.stop();
      await receiver.close();
    },
  };
}

/** The session token the console keeps, for setting up fixtures through the API. */
export async function sessionToken(page: Page): Promise<string> {
  const token = await page.evaluate(() => localStorage.getItem("hookflow.session"));
  if (!token) throw new Error("no session in the browser");
  return token;
}

/** A JSON call to the instance under test with the browser's session. */
export async function apiCall<T>(
  base: string,
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}
