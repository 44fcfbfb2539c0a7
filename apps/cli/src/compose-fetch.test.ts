import { composeFetch, type RouteTarget, routeOf } from "./compose-fetch.js";

describe("routeOf", () => {
  it.each<[string, RouteTarget]>([
    ["/api/in/tok_abc", "ingress"],
    ["/api/in/tok_abc/", "ingress"],
    ["/api/in", "ingress"],
    ["/api/events/evt_1/stream", "stream"],
    ["/api/events/evt_1/stream/", "stream"],
    ["/api/webhooks/wh_1/stream", "stream"],
    ["/api/webhooks/wh_1/stream-token", "api"],
    ["/api/webhooks/stream", "api"],
    ["/api/events/evt_1", "api"],
    ["/api/events/evt_1/replay", "api"],
    ["/api/events/stream", "api"],
    ["/api/index", "api"],
    ["/api/inbox", "api"],
    ["/api/health", "api"],
    ["/metrics", "api"],
    ["/", "api"],
  ])("sends %s to %s", (path, target) => {
    expect(routeOf(path)).toBe(target);
  });
});

describe("composeFetch", () => {
  it("hands each request to the app its path belongs to, query strings included", async () => {
    const answer = (name: string) => async (request: Request) =>
      new Response(`${name} ${new URL(request.url).pathname}`);
    const fetch = composeFetch({
      api: answer("api"),
      ingress: answer("ingress"),
      stream: answer("stream"),
    });
    const text = async (url: string) => (await fetch(new Request(url))).text();
    expect(await text("http://x/api/in/abc?x=1")).toBe("ingress /api/in/abc");
    expect(await text("http://x/api/events/evt_9/stream?token=t")).toBe(
      "stream /api/events/evt_9/stream",
    );
    expect(await text("http://x/api/webhooks")).toBe("api /api/webhooks");
  });
});
