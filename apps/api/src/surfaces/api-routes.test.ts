import { type ApiName, listApiRoutes } from "@ambercare/contracts/api-routes";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "#api/test-support.ts";

/**
 * The route table of packages/contracts (what the web's client calls) against the routes the API
 * really serves, as its OpenAPI document lists them: a row without its route, or a route without
 * its row, fails here rather than at the first call.
 */

const BASES: Record<ApiName, string> = { main: "/api/v1", care: "" };
const METHODS = ["get", "post", "put", "patch", "delete"] as const;
/** Served by the platform rather than by either API's surface, so not called through the table. */
const PLATFORM_PATHS = ["/healthz", "/dev/clock", "/dev/clock/advance"];

let testApp: TestApp;
let productSlug: string;

beforeAll(async () => {
  // With Stripe payments, so that the webhook (registered only then) is in the document too.
  testApp = await createTestApp({
    seed: false,
    env: {
      PAYMENTS: "stripe",
      STRIPE_SECRET_KEY: "sk_test_route_table",
      STRIPE_WEBHOOK_SECRET: "whsec_route_table",
      STRIPE_PRICE_MONTHLY: "price_monthly",
      STRIPE_PRICE_YEARLY: "price_yearly",
      STRIPE_PRICE_PPV_CHAT: "price_chat",
      STRIPE_PRICE_PPV_VIDEO: "price_video",
    },
  });
  await testApp.app.ready();
  productSlug = testApp.app.config.PRODUCT_SLUG;
});

afterAll(async () => {
  await testApp.close();
});

/** `METHOD /path/{param}` as the OpenAPI document writes it. */
function openApiKey(api: ApiName, method: string, path: string): string {
  const filled = path.replaceAll("{product}", productSlug).replaceAll(/:([A-Za-z_]+)/g, "{$1}");
  return `${method.toUpperCase()} ${BASES[api]}${filled}`;
}

function documentedRoutes(): Set<string> {
  const document = testApp.app.swagger() as { paths?: Record<string, Record<string, unknown>> };
  const keys = new Set<string>();
  for (const [path, operations] of Object.entries(document.paths ?? {})) {
    if (PLATFORM_PATHS.includes(path)) continue;
    for (const method of METHODS) if (operations[method]) keys.add(`${method.toUpperCase()} ${path}`);
  }
  return keys;
}

describe("the route table of packages/contracts", () => {
  it("names every route once", () => {
    const keys = listApiRoutes().map((route) => openApiKey(route.api, route.method, route.path));
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("has each row served by the API with the same method and path", () => {
    const documented = documentedRoutes();
    const missing = listApiRoutes()
      .map((route) => ({
        name: `${route.feature}.${route.name}`,
        key: openApiKey(route.api, route.method, route.path),
      }))
      .filter(({ key }) => !documented.has(key));
    expect(missing).toEqual([]);
  });

  it("has a row for every route of both APIs", () => {
    const rows = new Set(listApiRoutes().map((route) => openApiKey(route.api, route.method, route.path)));
    const unlisted = [...documentedRoutes()].filter((key) => !rows.has(key));
    expect(unlisted).toEqual([]);
    expect(rows.size).toBeGreaterThan(50);
  });

  it("declares each path parameter in the row's params schema", () => {
    for (const route of listApiRoutes()) {
      const names = [...route.path.matchAll(/:([A-Za-z_]+)/g)].map((match) => match[1]);
      const shape = (route.params as { shape?: Record<string, unknown> } | undefined)?.shape ?? {};
      expect(Object.keys(shape).sort(), `${route.feature}.${route.name}`).toEqual(names.sort());
    }
  });
});
