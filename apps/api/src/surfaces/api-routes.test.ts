import { API_BASES, listApiRoutes, type RouteSpec } from "@ambercare/contracts/api-routes";
import { LIVE_API_PATH } from "@ambercare/contracts/live";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { servedPath } from "#api/platform/contract-routes.ts";
import { createTestApp, TEST_STRIPE_PRICES, type TestApp } from "#api/test-support.ts";

/**
 * The route table of packages/contracts is the only declaration of an endpoint: the API registers
 * each route from its row (platform/contract-routes.ts), the web's client is generated from it, and
 * /docs is built from it. Checked here on the real app: every row is served exactly once, nothing
 * is served that has no row, and the OpenAPI document says of each route what its row says.
 */

/** Served by the platform rather than by either API: health, the test clock, the live socket. */
const PLATFORM_ROUTES = [
  "GET /healthz",
  "GET /dev/clock",
  "POST /dev/clock/advance",
  `GET ${API_BASES.main}${LIVE_API_PATH}`,
];

const rows = listApiRoutes();

let testApp: TestApp;
let productSlug: string;

beforeAll(async () => {
  // With Stripe payments, so that the webhook (registered only then) is served too.
  testApp = await createTestApp({
    seed: false,
    env: {
      PAYMENTS: "stripe",
      STRIPE_SECRET_KEY: "sk_test_route_table",
      STRIPE_WEBHOOK_SECRET: "whsec_route_table",
      ...TEST_STRIPE_PRICES,
    },
  });
  await testApp.app.ready();
  productSlug = testApp.app.config.PRODUCT_SLUG;
});

afterAll(async () => {
  await testApp.close();
});

/** Any well-formed id: the token is checked before the parameters. */
const ANY_ID = "00000000-0000-4000-8000-000000000000";

const key = (method: string, url: string) => `${method} ${url}`;
const rowKey = (row: RouteSpec) => key(row.method, servedPath(row, productSlug));

type Operation = {
  summary?: string;
  tags?: string[];
  security?: unknown;
  responses?: Record<string, unknown>;
};

function operationOf(row: RouteSpec): Operation | undefined {
  const document = testApp.app.swagger() as { paths?: Record<string, Record<string, Operation>> };
  const path = servedPath(row, productSlug).replaceAll(/:([A-Za-z_]+)/g, "{$1}");
  return document.paths?.[path]?.[row.method.toLowerCase()];
}

describe("the route table of packages/contracts", () => {
  it("names every route once", () => {
    const keys = rows.map(({ spec }) => key(spec.method, `${API_BASES[spec.api]}${spec.path}`));
    expect(new Set(keys).size).toBe(keys.length);
    expect(rows.length).toBeGreaterThan(50);
  });

  it("has each row registered exactly once, from the row, at its method and path", () => {
    const registered = testApp.app.registeredRoutes;
    const problems = rows.flatMap(({ name, spec }) => {
      const served = registered.filter((route) => route.contract === spec);
      if (served.length !== 1) return [`${name}: registered ${served.length} times`];
      const actual = served.map((route) => key(route.method, route.url))[0];
      return actual === rowKey(spec) ? [] : [`${name}: served as ${actual}, the table says ${rowKey(spec)}`];
    });
    expect(problems).toEqual([]);
  });

  it("leaves no route of either API outside the table", () => {
    const known = new Set(rows.map((row) => row.spec));
    const outside = testApp.app.registeredRoutes
      .filter((route) => !(route.contract && known.has(route.contract)))
      .map((route) => key(route.method, route.url))
      .filter((route) => !PLATFORM_ROUTES.includes(route));
    expect(outside).toEqual([]);
  });

  it("has the OpenAPI document list each row with its summary, token and statuses", () => {
    const problems = rows.flatMap(({ name, spec }) => {
      const operation = operationOf(spec);
      if (!operation) return [`${name}: not in the OpenAPI document`];
      // A download documents no answer of its own: OpenAPI shows its default 200.
      const successes = spec.raw === "download" ? [200] : [spec.status ?? 200].flat();
      const expected = {
        summary: spec.summary,
        tags: [spec.api],
        security: spec.bearer ? [{ bearerAuth: [] }] : undefined,
        statuses: [...successes, ...(spec.errors ?? [])].map(String).sort(),
      };
      const actual = {
        summary: operation.summary,
        tags: operation.tags,
        security: operation.security,
        statuses: Object.keys(operation.responses ?? {}).sort(),
      };
      return JSON.stringify(actual) === JSON.stringify(expected)
        ? []
        : [`${name}: ${JSON.stringify(actual)}`];
    });
    expect(problems).toEqual([]);
  });

  it("refuses a call without a token on every row that takes one", async () => {
    const answered = await Promise.all(
      rows
        .filter(({ spec }) => spec.bearer)
        .map(async ({ name, spec }) => {
          const url = servedPath(spec, productSlug).replaceAll(/:([A-Za-z_]+)/g, ANY_ID);
          const response = await testApp.app.inject({ method: spec.method, url });
          return `${name} ${response.statusCode}`;
        }),
    );
    expect(answered.filter((line) => !line.endsWith(" 401"))).toEqual([]);
  });

  it("declares each path parameter in the row's params schema", () => {
    for (const { name, spec } of rows) {
      const names = [...spec.path.matchAll(/:([A-Za-z_]+)/g)].map((match) => match[1]);
      const shape = (spec.params as { shape?: Record<string, unknown> } | undefined)?.shape ?? {};
      expect(Object.keys(shape).sort(), name).toEqual(names.sort());
    }
  });
});
