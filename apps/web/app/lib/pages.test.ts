import { readFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
// The web reaches the API only over HTTP; this test serves the real API app (on PGlite) on a
// loopback port for it, so it builds that app here (biome.jsonc allows it in web test files only).
import {
  createTestApp,
  registerClinician,
  registerOperator,
  registerPatient,
  TEST_PUBLIC_API_TOKEN,
  TEST_SERVICE_ACCOUNT,
  type TestApp,
} from "@ambercare/api/src/test-support.ts";
import type { RouteConfigEntry } from "@react-router/dev/routes";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  isRoutePath,
  PAGES,
  REDIRECT_HOME_WHEN_LOGGED_IN,
  type RoutePath,
  routeAccess,
} from "#app/lib/pages.ts";
import routes from "#app/routes.ts";

const APP_DIR = fileURLToPath(new URL("../", import.meta.url));

type Flat = { path: string; file: string; layout: string | null };

/** Every route of routes.ts with its full path and its layout file. */
function flatten(entries: RouteConfigEntry[], parentPath = "", layout: string | null = null): Flat[] {
  return entries.flatMap((entry) => {
    const path = entry.index ? parentPath || "/" : `${parentPath}/${entry.path ?? ""}`.replace(/\/+$/, "");
    if (entry.children?.length) {
      const isLayout = entry.path === undefined && !entry.index;
      return flatten(entry.children, isLayout ? parentPath : path, isLayout ? entry.file : layout);
    }
    return [{ path: path || "/", file: entry.file, layout }];
  });
}

const ALL = flatten(routes);
const CATCH_ALL = "/*";
const PAGE_ROUTES = ALL.filter((route) => isRoutePath(route.path));

const MAIN = "routes/layouts/main.tsx";
const SOON = "routes/layouts/soon.tsx";
const CONSOLE = "routes/layouts/console.tsx";
const OPERATIONS = "routes/layouts/operations.tsx";
const SOON_PATHS = ["/blog", "/blog/:page", "/medical-providers"];

/** The pages behind a login: the patient's own, the intake form, checkout, the console. */
const LOGGED_IN_PAGES = [
  "/cancel-subscription",
  "/checkout/:checkoutId",
  "/consultation/form",
  "/my-profile",
  "/my-profile/billing-history",
  "/my-profile/billing-history/:invoiceId",
  "/my-profile/consultations",
  "/my-profile/consultations/:consultationId",
  "/my-profile/health-data",
  "/my-profile/manage-subscription",
  "/my-profile/medical-records",
  "/my-profile/messages",
  "/my-profile/past-appointments",
  "/my-profile/security",
  "/console",
  "/console/visits/:id",
  "/operations",
  "/operations/visits",
  "/operations/visits/:id",
  "/operations/log",
  "/operations/access-log",
];
/** The pages for logged-out visitors. */
const LOGGED_OUT_PAGES = [
  "/forgot-password",
  "/login",
  "/login/lost-device",
  "/login/second-factor",
  "/reset-password",
  "/sign-up",
  "/sign-up/confirm",
];
/** The patient's pages a clinician is sent away from; the console is the clinicians' own. */
const PATIENT_PAGES = LOGGED_IN_PAGES.filter(
  (path) =>
    path !== "/my-profile/security" && !path.startsWith("/console") && !path.startsWith("/operations"),
);

describe("the route config built from the page table", () => {
  it("has a route for every page of the table, in its layout: the soon one, the console's, or the main one", () => {
    expect(PAGE_ROUTES.map((route) => route.path).sort()).toEqual(Object.keys(PAGES).sort());
    for (const route of PAGE_ROUTES) {
      const expected = SOON_PATHS.includes(route.path)
        ? SOON
        : route.path === "/console" || route.path.startsWith("/console/")
          ? CONSOLE
          : route.path === "/operations" || route.path.startsWith("/operations/")
            ? OPERATIONS
            : MAIN;
      expect(route.layout, route.path).toBe(expected);
      expect(route.file, route.path).toBe(PAGES[route.path as RoutePath].file);
    }
  });

  it("has the catch-all that sends unknown paths to /", () => {
    expect(ALL.filter((route) => route.path === CATCH_ALL)).toHaveLength(1);
  });

  it("serves every route that is not a page as a resource route outside the layouts", () => {
    const resources = ALL.filter((route) => !isRoutePath(route.path) && route.path !== CATCH_ALL);
    expect(resources.map((route) => route.path)).toEqual(
      expect.arrayContaining(["/robots.txt", "/sitemap.xml", "/my-profile/health-data/export"]),
    );
    for (const route of resources) {
      expect(route.layout, route.path).toBeNull();
      expect(route.file, route.path).toMatch(/\.ts$/);
    }
  });
});

/**
 * The loaders against the real API (PGlite, on a loopback port): a patient, a clinician with the
 * second factor on and one still without it, each with the session cookies a login sets. The route
 * modules read API_URL when they first load, below.
 */
let api: TestApp;
let LOGGED_IN: string;
let CLINICIAN: string;
let CLINICIAN_WITHOUT_FACTOR: string;
let clinician: { user_id: string; providerId: string };
let OPERATOR: string;
let OPERATOR_WITHOUT_FACTOR: string;
/** A provider of the seeded directory: its profile is the page every visitor may open. */
let providerSlug: string;

type Login = Awaited<ReturnType<typeof registerPatient>>;
const cookieOf = (login: Login) =>
  `isLoggedIn=true; fltAccessToken=${login.care.access_token}; accessToken=${login.access_token}; userID=${login.user_id}; fltUserId=${login.care.user_id}`;

beforeAll(async () => {
  api = await createTestApp();
  await api.app.listen({ port: 0, host: "127.0.0.1" });
  vi.stubEnv("API_URL", `http://127.0.0.1:${(api.app.server.address() as AddressInfo).port}`);
  vi.stubEnv("PUBLIC_API_TOKEN", TEST_PUBLIC_API_TOKEN);
  vi.stubEnv("SERVICE_ACCOUNT_EMAIL", TEST_SERVICE_ACCOUNT.email);
  vi.stubEnv("SERVICE_ACCOUNT_PASSWORD", TEST_SERVICE_ACCOUNT.password);
  vi.stubEnv("PRODUCT_SLUG", api.app.config.PRODUCT_SLUG);
  LOGGED_IN = cookieOf(await registerPatient(api.app));
  const withFactor = await registerClinician(api, new Date());
  clinician = withFactor;
  CLINICIAN = cookieOf(withFactor);
  const withoutFactor = await registerClinician(api, new Date(), { secondFactor: false });
  CLINICIAN_WITHOUT_FACTOR = cookieOf(withoutFactor);
  OPERATOR = cookieOf(await registerOperator(api, new Date()));
  OPERATOR_WITHOUT_FACTOR = cookieOf(await registerOperator(api, new Date(), { secondFactor: false }));
  // Load every route module once here, so the first test does not pay for compiling the app.
  await Promise.all(PAGE_ROUTES.map((route) => import(/* @vite-ignore */ `${APP_DIR}${route.file}`)));
  const search = (await import(`${APP_DIR}routes/find-a-doctor.tsx`)) as {
    loader(args: LoaderArgs): Promise<{ data: { search: { providers: Array<{ slug: string }> } } }>;
  };
  const directory = await search.loader({
    request: new Request("http://localhost/find-a-doctor"),
    params: {},
    context: {},
    pattern: "/find-a-doctor",
  });
  providerSlug = directory.data.search.providers[0]!.slug;
}, 180_000);
afterAll(async () => {
  vi.unstubAllEnvs();
  await api.close();
});

/** The page's URL: a real provider's profile, "some-page" (nothing that exists) elsewhere. */
function concrete(path: string): string {
  return path === "/find-a-doctor/:page"
    ? `/find-a-doctor/${providerSlug}`
    : path.replace(/:\w+/, "some-page");
}

type LoaderArgs = { request: Request; params: Record<string, string>; context: object; pattern: string };

async function runLoader(route: Flat, cookie?: string): Promise<{ value?: unknown; thrown?: unknown }> {
  const module = (await import(/* @vite-ignore */ `${APP_DIR}${route.file}`)) as {
    loader?: (args: LoaderArgs) => Promise<unknown>;
  };
  if (!module.loader) throw new Error(`${route.file} has no loader`);
  const request = new Request(`http://localhost${concrete(route.path)}?from=test`, {
    headers: cookie ? { Cookie: cookie } : {},
  });
  try {
    return {
      value: await module.loader({
        request,
        params: {
          page: route.path === "/find-a-doctor/:page" ? providerSlug : "some-page",
          checkoutId: "some-page",
          invoiceId: "some-page",
          consultationId: "some-page",
        },
        context: {},
        // What React Router hands every loader of the match: the matched route's pattern.
        pattern: route.path,
      }),
    };
  } catch (thrown) {
    return { thrown };
  }
}

function redirectOf(thrown: unknown): string | null {
  return thrown instanceof Response && thrown.status >= 300 && thrown.status < 400
    ? thrown.headers.get("Location")
    : null;
}

function statusOf(thrown: unknown): number | undefined {
  if (thrown instanceof Response) return thrown.status;
  return (thrown as { init?: { status?: number } } | undefined)?.init?.status;
}

const pageOf = (path: string) => {
  const route = PAGE_ROUTES.find((page) => page.path === path);
  if (!route) throw new Error(`no page ${path}`);
  return route;
};

async function operationsLayoutLoader(cookie: string) {
  const layout = (await import(`${APP_DIR}routes/layouts/operations.tsx`)) as {
    loader(args: LoaderArgs): Promise<unknown>;
  };
  const request = new Request("http://localhost/operations", { headers: { Cookie: cookie } });
  return layout.loader({ request, params: {}, context: {}, pattern: "/operations" });
}

async function consoleLayoutLoader(cookie: string) {
  const layout = (await import(`${APP_DIR}routes/layouts/console.tsx`)) as {
    loader(args: LoaderArgs): Promise<unknown>;
  };
  const request = new Request("http://localhost/console", { headers: { Cookie: cookie } });
  return layout.loader({ request, params: {}, context: {}, pattern: "/console" });
}

describe("every page's loader enforces its entry", () => {
  it.each(PAGE_ROUTES)("$path applies its page's rule on the first line of its loader", (route) => {
    const source = readFileSync(`${APP_DIR}${route.file}`, "utf8");
    const loader = source.slice(source.indexOf("export async function loader"));
    const firstStatement = loader.split("\n")[1] ?? "";
    expect(firstStatement).toMatch(/requireRoute(Access|User|Clinician|Operator)\(request, pattern\)/);
  });

  it.each(LOGGED_IN_PAGES)("%s sends an anonymous visitor to /login and back", async (path) => {
    const back = encodeURIComponent(`${concrete(path)}?from=test`);
    expect(redirectOf((await runLoader(pageOf(path))).thrown)).toBe(`/login?redirectTo=${back}`);
  });

  it.each(LOGGED_OUT_PAGES)("%s is for logged-out visitors", async (path) => {
    const anonymous = await runLoader(pageOf(path));
    const loggedIn = await runLoader(pageOf(path), LOGGED_IN);
    expect(anonymous.thrown).toBeUndefined();
    if (path === "/login" || path === "/sign-up") {
      expect(redirectOf(loggedIn.thrown)).toBe("/");
    } else {
      expect(loggedIn.thrown).toBeUndefined();
      expect(loggedIn.value).toMatchObject({ alreadyLoggedIn: true });
      expect(anonymous.value).toMatchObject({ alreadyLoggedIn: false });
    }
    expect([...REDIRECT_HOME_WHEN_LOGGED_IN].sort()).toEqual(["/login", "/sign-up"]);
  });

  it.each(PAGE_ROUTES)(
    "$path behaves as its flags say, for anonymous and logged-in visitors",
    async (route) => {
      const access = routeAccess(route.path as RoutePath);
      const anonymous = await runLoader(route);
      const loggedIn = await runLoader(route, LOGGED_IN);
      const back = encodeURIComponent(`${concrete(route.path)}?from=test`);

      if (route.path === "/logout") {
        expect(redirectOf(anonymous.thrown)).toBe("/login");
        // A GET only asks (a cross-site link must not sign anyone out); the POST action logs out.
        expect(loggedIn.thrown).toBeUndefined();
        return;
      }
      if (
        route.path === "/checkout/:checkoutId" ||
        route.path === "/my-profile/billing-history/:invoiceId" ||
        route.path === "/my-profile/consultations/:consultationId"
      ) {
        // No such checkout, invoice or visit: login first, then a 404 (never someone else's record).
        expect(redirectOf(anonymous.thrown)).toBe(`/login?redirectTo=${back}`);
        expect(statusOf(loggedIn.thrown)).toBe(404);
        return;
      }
      if (route.path === "/consultation/book") {
        // Booking needs a provider to book with: without one, login first, then the directory.
        expect(redirectOf(anonymous.thrown)).toBe(`/login?redirectTo=${back}`);
        expect(redirectOf(loggedIn.thrown)).toBe("/find-a-doctor");
        return;
      }
      if (route.path === "/careers/:page") {
        // "some-page" is no opening: a real 404, for everyone.
        expect(statusOf(anonymous.thrown)).toBe(404);
        expect(statusOf(loggedIn.thrown)).toBe(404);
        return;
      }
      if (access.requiresAuthentication) {
        expect(redirectOf(anonymous.thrown)).toBe(`/login?redirectTo=${back}`);
        // The logged-in visitor here is a patient: the consoles refuse them.
        if (access.role === "clinician" || access.role === "operator")
          expect(statusOf(loggedIn.thrown)).toBe(403);
        else expect(loggedIn.thrown).toBeUndefined();
        return;
      }
      expect(anonymous.thrown).toBeUndefined();
      if (access.notAuthenticated) {
        if ((REDIRECT_HOME_WHEN_LOGGED_IN as readonly string[]).includes(route.path)) {
          expect(redirectOf(loggedIn.thrown)).toBe("/");
        } else {
          expect(loggedIn.thrown).toBeUndefined();
          expect(loggedIn.value).toMatchObject({ alreadyLoggedIn: true });
          expect(anonymous.value).toMatchObject({ alreadyLoggedIn: false });
        }
        return;
      }
      expect(loggedIn.thrown).toBeUndefined();
      // The first case imports the route modules and their dependencies cold; on a busy two-core
      // machine that alone can take several seconds.
    },
    30_000,
  );

  it("redirects every unknown path to / with a 302", async () => {
    const catchAll = ALL.find((route) => route.path === CATCH_ALL);
    expect(catchAll).toBeDefined();
    const { thrown } = await runLoader(catchAll as Flat);
    expect(redirectOf(thrown)).toBe("/");
    expect((thrown as Response).status).toBe(302);
  });
});

describe("the role of a page", () => {
  it.each(PATIENT_PAGES)("%s sends a clinician to /console", async (path) => {
    const { thrown } = await runLoader(pageOf(path), CLINICIAN);
    expect(redirectOf(thrown)).toBe("/console");
  });

  it("opens the second factor's setup to patients and clinicians alike", async () => {
    expect((await runLoader(pageOf("/my-profile/security"), LOGGED_IN)).thrown).toBeUndefined();
    expect((await runLoader(pageOf("/my-profile/security"), CLINICIAN)).thrown).toBeUndefined();
  });

  it("opens /console to a clinician with the second factor on, with who they are and their provider", async () => {
    const page = await runLoader(pageOf("/console"), CLINICIAN);
    expect(page.thrown).toBeUndefined();
    // The page shows the clinician's queue, visits, duty and today's and the week's booked visits (in
    // the clinic's default zone until they save their hours); the layout says who they are.
    expect((page.value as { data: unknown }).data).toEqual({
      queue: [],
      visits: [],
      duty: { on_duty: false, since: null, expected_wait_minutes: null },
      agenda: { items: [], week: [], timeZone: expect.any(String) },
    });
    expect(await consoleLayoutLoader(CLINICIAN)).toEqual({
      clinician: expect.objectContaining({
        user_id: clinician.user_id,
        provider: expect.objectContaining({ id: clinician.providerId }),
      }),
    });
  });

  it("sends a clinician without the second factor from /console to its setup, which stays open to them", async () => {
    const { thrown } = await runLoader(pageOf("/console"), CLINICIAN_WITHOUT_FACTOR);
    expect(redirectOf(thrown)).toBe("/my-profile/security");
    const setup = await runLoader(pageOf("/my-profile/security"), CLINICIAN_WITHOUT_FACTOR);
    expect(setup.thrown).toBeUndefined();
  });

  it.each(PATIENT_PAGES)("%s sends an operator to /operations", async (path) => {
    const { thrown } = await runLoader(pageOf(path), OPERATOR);
    expect(redirectOf(thrown)).toBe("/operations");
  });

  it("opens /operations to an operator with the second factor on, and refuses it to patients and clinicians with 403", async () => {
    const opened = await runLoader(pageOf("/operations"), OPERATOR);
    expect(opened.thrown).toBeUndefined();
    expect(opened.value).toMatchObject({ data: { team: expect.any(Array) } });
    expect(await operationsLayoutLoader(OPERATOR)).toMatchObject({ operator: expect.any(Object) });
    for (const cookie of [LOGGED_IN, CLINICIAN]) {
      expect(statusOf((await runLoader(pageOf("/operations"), cookie)).thrown)).toBe(403);
      expect(statusOf(await operationsLayoutLoader(cookie).catch((error: unknown) => error))).toBe(403);
    }
    // An operator on the care console is refused as well.
    expect(statusOf((await runLoader(pageOf("/console"), OPERATOR)).thrown)).toBe(403);
  });

  it("sends an operator without the second factor from /operations to its setup", async () => {
    const { thrown } = await runLoader(pageOf("/operations"), OPERATOR_WITHOUT_FACTOR);
    expect(redirectOf(thrown)).toBe("/my-profile/security");
    expect((await runLoader(pageOf("/my-profile/security"), OPERATOR_WITHOUT_FACTOR)).thrown).toBeUndefined();
  });

  it("refuses /console and its layout to a patient with 403", async () => {
    expect(statusOf((await runLoader(pageOf("/console"), LOGGED_IN)).thrown)).toBe(403);
    const refused = await consoleLayoutLoader(LOGGED_IN).catch((error: unknown) => error);
    expect(statusOf(refused)).toBe(403);
  });
});
