import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parse, parseAllDocuments } from "yaml";
import { parseStartArgs, ROLES } from "../src/commands/start-args.js";
import { type RouteTarget, routeOf } from "../src/compose-fetch.js";
import { NODE_FLAGS, WORKER_NODE_FLAGS } from "../src/node-flags.js";

// No Docker engine or cluster runs in CI: these checks read the deploy files the way Compose,
// Caddy and Kubernetes would and hold them to what the CLI actually accepts and routes.

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const read = (path: string) => readFileSync(join(ROOT, path), "utf8");

/** Paths whose owner every routing layer must agree on (the CLI's `routeOf` is the reference). */
const SAMPLE_PATHS = [
  "/api/in/tok_abc123",
  "/api/events/evt_01J/stream",
  "/api/webhooks/wh_01J/stream",
  "/api/webhooks/wh_01J/stream-token",
  "/api/events/evt_01J",
  "/api/events/evt_01J/replay",
  "/api/webhooks",
  "/api/health",
  "/api/auth/login",
  "/metrics",
  "/",
  // The web console, served by the api role: its client routes and hashed assets.
  "/webhooks/wh_01J/canvas",
  "/assets/index-1a2b3c.js",
];

interface ComposeService {
  image?: string;
  build?: unknown;
  command?: string[];
  entrypoint?: string[];
  environment?: Record<string, string>;
  depends_on?: string[] | Record<string, { condition?: string }>;
  healthcheck?: { test?: unknown };
  deploy?: { replicas?: number };
  volumes?: string[];
  ports?: string[];
}

const compose = parse(read("docker/docker-compose.yml"), { merge: true }) as {
  services: Record<string, ComposeService>;
};
const services = compose.services;
const dependencies = (service: ComposeService) =>
  Array.isArray(service.depends_on) ? service.depends_on : Object.keys(service.depends_on ?? {});
const roleOf = (service: ComposeService) => {
  const parsed = parseStartArgs((service.command ?? []).slice(1));
  return service.command?.[0] === "start" && "role" in parsed ? parsed.role : null;
};

describe("docker-compose.yml", () => {
  it("references only services that exist in depends_on", () => {
    for (const [name, service] of Object.entries(services)) {
      for (const dependency of dependencies(service)) {
        expect({ service: name, dependsOn: dependency, exists: dependency in services }).toEqual({
          service: name,
          dependsOn: dependency,
          exists: true,
        });
      }
    }
  });

  it("waits only on dependencies that have a healthcheck when it waits for health", () => {
    for (const service of Object.values(services)) {
      if (Array.isArray(service.depends_on) || !service.depends_on) continue;
      for (const [dependency, rule] of Object.entries(service.depends_on)) {
        if (rule.condition === "service_healthy") {
          expect(services[dependency]?.healthcheck?.test).toBeDefined();
        }
      }
    }
  });

  it("runs every role with a command the CLI accepts, two workers among them", () => {
    const byRole = new Map<string, string>();
    for (const [name, service] of Object.entries(services)) {
      if (service.command?.[0] !== "start") continue;
      const role = roleOf(service);
      expect({ service: name, role }).toEqual({ service: name, role: expect.any(String) });
      byRole.set(role ?? "", name);
    }
    expect([...byRole.keys()].sort()).toEqual([...ROLES].sort());
    const worker = services[byRole.get("worker") ?? ""];
    expect(worker?.deploy?.replicas).toBe(2);
  });

  it("starts the worker with the worker's V8 flags and the other roles with the image's", () => {
    for (const [name, service] of Object.entries(services)) {
      if (service.command?.[0] !== "start") continue;
      const role = roleOf(service);
      expect({ service: name, entrypoint: service.entrypoint }).toEqual({
        service: name,
        entrypoint: role === "worker" ? ["node", ...WORKER_NODE_FLAGS, "dist/main.js"] : undefined,
      });
    }
  });

  it("requires the secrets through Compose's required-variable syntax", () => {
    for (const service of Object.values(services).filter((s) => roleOf(s))) {
      expect(service.environment?.HOOKFLOW_SECRET).toMatch(/^\$\{HOOKFLOW_SECRET:\?.+\}$/);
      expect(service.environment?.HOOKFLOW_ENCRYPTION_KEY).toMatch(
        /^\$\{HOOKFLOW_ENCRYPTION_KEY:\?.+\}$/,
      );
      expect(service.environment?.DATABASE_URL).toMatch(/@postgres:5432\//);
      expect(service.environment?.REDIS_URL).toBe("redis://redis:6379");
      expect(service.healthcheck?.test).toEqual(
        expect.arrayContaining([expect.stringContaining("/api/health")]),
      );
    }
    expect(services.postgres?.image).toMatch(/^postgres:16/);
    expect(services.redis?.image).toMatch(/^redis:7/);
  });

  it("serves metrics on their own port inside the network, published by no service", () => {
    for (const service of Object.values(services).filter((s) => roleOf(s))) {
      expect(service.environment?.METRICS_PORT).toBe("9464");
      expect(service.environment?.METRICS_HOST).toBe("0.0.0.0");
    }
    const published = Object.values(services).flatMap((service) => service.ports ?? []);
    // Only the proxy's port reaches the host.
    expect(published).toEqual([`$\{PROXY_PORT:-8080}:80`]);
  });
});

/** The subset of Caddyfile syntax docker/Caddyfile uses: named path matchers and handle blocks. */
function caddyRoutes(source: string) {
  const matchers = new Map<string, (path: string) => boolean>();
  for (const [, name, kind, rest] of source.matchAll(/^\s*@(\S+)\s+(path|path_regexp)\s+(.+)$/gm)) {
    const args = (rest ?? "").trim().split(/\s+/);
    if (kind === "path") {
      const globs = args.map((glob) =>
        glob.endsWith("*")
          ? (p: string) => p.startsWith(glob.slice(0, -1))
          : (p: string) => p === glob,
      );
      matchers.set(name ?? "", (path) => globs.some((match) => match(path)));
    } else {
      const regex = new RegExp(args[args.length - 1] ?? "$^");
      matchers.set(name ?? "", (path) => regex.test(path));
    }
  }
  const handles: Array<{ matcher: string | null; upstream: string }> = [];
  for (const [, matcher, body] of source.matchAll(
    /^\s*handle(?:\s+@(\S+))?\s*\{([\s\S]*?)^\s*\}\s*$/gm,
  )) {
    const upstream = /reverse_proxy\s+(\S+)/.exec(body ?? "")?.[1];
    if (upstream) handles.push({ matcher: matcher ?? null, upstream });
  }
  return (path: string) => {
    const hit = handles.find((h) => h.matcher === null || matchers.get(h.matcher)?.(path));
    return hit?.upstream ?? null;
  };
}

describe("docker/Caddyfile", () => {
  const route = caddyRoutes(read("docker/Caddyfile"));
  const serviceFor = (target: RouteTarget) =>
    Object.entries(services).find(([, s]) => roleOf(s) === target)?.[0];

  it.each(SAMPLE_PATHS)("proxies %s to the service the CLI routes it to", (path) => {
    expect(route(path)).toBe(`${serviceFor(routeOf(path))}:3000`);
  });

  it("proxies only to the apps' public port, never to a metrics port", () => {
    const upstreams = [...read("docker/Caddyfile").matchAll(/reverse_proxy\s+(\S+)/g)];
    expect(upstreams.length).toBeGreaterThan(0);
    for (const [, upstream] of upstreams) expect(upstream).toMatch(/:3000$/);
  });

  it("turns buffering off for the event stream", () => {
    expect(read("docker/Caddyfile")).toMatch(/reverse_proxy stream:3000 \{\s*flush_interval -1/);
  });

  it("is mounted into the proxy service", () => {
    expect(services.proxy?.volumes).toContain("./Caddyfile:/etc/caddy/Caddyfile:ro");
  });
});

describe("node flags", () => {
  it("start every Hookflow process the workspace launches with the same V8 flags", () => {
    const scripts = (JSON.parse(read("package.json")) as { scripts: Record<string, string> })
      .scripts;
    for (const name of ["start", "hookflow"]) {
      expect(scripts[name]).toContain(`node ${NODE_FLAGS.join(" ")} apps/cli/dist/main.js`);
    }
  });
});

describe("docker/Dockerfile", () => {
  const dockerfile = read("docker/Dockerfile");
  const stages = dockerfile.split(/^FROM\s/m).slice(1);
  const runtime = stages[stages.length - 1] ?? "";

  it("builds in several stages", () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    expect(dockerfile).toMatch(/pnpm install --frozen-lockfile/);
    expect(dockerfile).toMatch(/deploy --prod/);
  });

  it("runs the CLI as a non-root user in production mode", () => {
    const user = /^USER\s+(\S+)/m.exec(runtime)?.[1];
    expect(user).toBeDefined();
    expect(["root", "0", "0:0"]).not.toContain(user);
    expect(runtime).toMatch(/NODE_ENV=production/);
    const flags = NODE_FLAGS.map((flag) => `"${flag}", `).join("");
    expect(runtime).toContain(`ENTRYPOINT ["node", ${flags}"dist/main.js"]`);
    expect(runtime).toMatch(/^CMD \["start"\]$/m);
    expect(runtime).toMatch(/^HEALTHCHECK[\s\S]*\/api\/health/m);
  });

  it("copies the patches of patched dependencies before the lockfile-only fetch", () => {
    const workspace = read("pnpm-workspace.yaml");
    const patches = [...workspace.matchAll(/^\s+\S+@[^:]+:\s*(patches\/\S+)$/gm)].map((m) => m[1]);
    expect(patches.length).toBeGreaterThan(0);
    for (const patch of patches) expect(read(String(patch)).length).toBeGreaterThan(0);
    const copy = dockerfile.indexOf("COPY patches ./patches");
    expect(copy).toBeGreaterThan(-1);
    expect(copy).toBeLessThan(dockerfile.search(/^RUN .*pnpm fetch$/m));
  });

  it("keeps dependencies and build output out of the build context", () => {
    const ignored = read(".dockerignore").split("\n");
    expect(ignored).toEqual(expect.arrayContaining(["**/node_modules", "**/dist", ".env"]));
  });
});

describe("infra/k8s", () => {
  const dir = "infra/k8s";
  const files = readdirSync(join(ROOT, dir)).filter((f) => f.endsWith(".yaml"));
  const docs = files.flatMap((file) =>
    parseAllDocuments(read(join(dir, file))).map((doc) => ({ file, doc })),
  );
  const objects = docs.map(({ file, doc }) => ({ file, value: doc.toJS() as any }));
  const ofKind = (kind: string) =>
    objects.filter((o) => o.value?.kind === kind).map((o) => o.value);

  it("parses every manifest into named Kubernetes objects", () => {
    expect(files.length).toBeGreaterThan(0);
    for (const { file, doc } of docs) {
      expect({ file, errors: doc.errors.map(String) }).toEqual({ file, errors: [] });
    }
    for (const { file, value } of objects) {
      expect({ file, apiVersion: typeof value.apiVersion, kind: typeof value.kind }).toEqual({
        file,
        apiVersion: "string",
        kind: "string",
      });
      if (value.kind !== "Kustomization") expect(value.metadata?.name).toEqual(expect.any(String));
    }
  });

  it("lists only existing files in the kustomization", () => {
    const kustomization = ofKind("Kustomization")[0];
    for (const resource of kustomization.resources as string[]) expect(files).toContain(resource);
  });

  it("deploys every role with valid CLI arguments and health probes", () => {
    const deployments = ofKind("Deployment");
    const roles = deployments.map((d) => {
      const container = d.spec.template.spec.containers[0];
      const parsed = parseStartArgs(container.args.slice(1));
      expect(container.args[0]).toBe("start");
      expect(container.readinessProbe.httpGet.path).toBe("/api/health");
      expect(container.livenessProbe.httpGet.path).toBe("/api/health");
      expect(d.spec.template.spec.securityContext.runAsNonRoot).toBe(true);
      expect(d.spec.selector.matchLabels).toEqual(
        expect.objectContaining({
          "app.kubernetes.io/component":
            d.spec.template.metadata.labels["app.kubernetes.io/component"],
        }),
      );
      return "role" in parsed ? parsed.role : null;
    });
    expect(roles.sort()).toEqual([...ROLES].sort());
    const worker = deployments.find((d) => d.metadata.name === "hookflow-worker");
    expect(worker.spec.replicas).toBe(2);
  });

  it("starts the worker with the worker's V8 flags and the other roles with the image's", () => {
    for (const deployment of ofKind("Deployment")) {
      const container = deployment.spec.template.spec.containers[0];
      const parsed = parseStartArgs(container.args.slice(1));
      const role = "role" in parsed ? parsed.role : null;
      expect({ role, command: container.command }).toEqual({
        role,
        command: role === "worker" ? ["node", ...WORKER_NODE_FLAGS, "dist/main.js"] : undefined,
      });
    }
  });

  it("has Prometheus scrape each pod's metrics port, which no Service exposes", () => {
    const config = ofKind("ConfigMap").find((c) => c.metadata.name === "hookflow-config");
    for (const deployment of ofKind("Deployment")) {
      const template = deployment.spec.template;
      const ports = template.spec.containers[0].ports as Array<{
        name: string;
        containerPort: number;
      }>;
      const metrics = ports.find((port) => port.name === "metrics");
      expect(metrics?.containerPort).toBe(Number(config.data.METRICS_PORT));
      expect(template.metadata.annotations["prometheus.io/port"]).toBe(config.data.METRICS_PORT);
    }
    expect(config.data.METRICS_HOST).toBe("0.0.0.0");
    for (const service of ofKind("Service")) {
      for (const port of service.spec.ports) {
        expect({ service: service.metadata.name, targetPort: port.targetPort }).toEqual({
          service: service.metadata.name,
          targetPort: "http",
        });
      }
    }
  });

  it("gives each Service a Deployment to select and autoscales the worker and ingress", () => {
    const podLabels = ofKind("Deployment").map((d) => d.spec.template.metadata.labels);
    for (const service of ofKind("Service")) {
      const selects = podLabels.some((labels) =>
        Object.entries(service.spec.selector).every(([k, v]) => labels[k] === v),
      );
      expect({ service: service.metadata.name, selects }).toEqual({
        service: service.metadata.name,
        selects: true,
      });
    }
    const scaled = ofKind("HorizontalPodAutoscaler").map((h) => h.spec.scaleTargetRef.name);
    expect(scaled.sort()).toEqual(["hookflow-ingress", "hookflow-worker"]);
  });

  it.each(SAMPLE_PATHS)(
    "routes %s through the Ingress to the service the CLI routes it to",
    (path) => {
      // ingress-nginx with use-regex: each path is a regex prefix, the longest path wins.
      const rules = ofKind("Ingress").flatMap((ingress) =>
        ingress.spec.rules.flatMap((rule: any) =>
          rule.http.paths.map((p: any) => ({
            path: p.path as string,
            service: p.backend.service.name,
          })),
        ),
      );
      const matching = rules
        .filter((rule) => new RegExp(`^${rule.path}`).test(path))
        .sort((a, b) => b.path.length - a.path.length);
      expect(matching[0]?.service).toBe(`hookflow-${routeOf(path)}`);
    },
  );
});
