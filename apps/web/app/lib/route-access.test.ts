import { once } from "node:events";
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import type { RouteConfigEntry } from "@react-router/dev/routes";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  REDIRECT_HOME_WHEN_LOGGED_IN,
  ROUTE_ACCESS,
  ROUTE_PATHS,
  type RouteAccess,
  type RoutePath,
} from "#app/lib/route-access.ts";
import { JANE_ACCOUNT } from "#app/lib/test-support.ts";
import routes from "#app/routes.ts";

const APP_DIR = fileURLToPath(new URL("../", import.meta.url));

type Flat = { path: string; file: string; layout: string | null };

/** Every page route of routes.ts with its full path and its layout file. */
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
/** Files for search engines (resource routes, lib/seo.ts): not pages, no access flags. */
const SEO_FILES = ["/robots.txt", "/sitemap.xml"];
/** Resource routes of the site-wide forms and downloads (ADR 017): they check access themselves. */
const FORM_RESOURCES = [
  "/captcha/challenge",
  "/cookie-consent",
  "/my-profile/health-data/export",
  "/newsletter",
  "/support-message",
];
/** A patient's document download (under the medical records page's access rule). */
const DOWNLOADS = ["/my-profile/medical-records/documents/:id"];
/** A visit's chat for its component, for either side (the API checks whose visit it is). */
const CHAT_RESOURCES = ["/visit-chat/:id", "/visit-chat/:id/attachments/:documentId"];
/** A video visit's call setup for the device check and the call, and its history, either side (the API checks). */
const CALL_RESOURCES = ["/visit-call/:id", "/visit-call/:id/events"];
/** The console workspace's notes saves and the patient's documents (under the workspace's rule). */
const CONSOLE_RESOURCES = ["/console/visits/:id/notes", "/console/visits/:id/documents/:documentId"];
/** Either side's visit page data for its live re-reads (under the page's own rule). */
const LIVE_PAGE_DATA = ["/my-profile/consultations/:consultationId/data", "/console/visits/:id/data"];
const RESOURCES = [
  ...SEO_FILES,
  ...FORM_RESOURCES,
  ...DOWNLOADS,
  ...CHAT_RESOURCES,
  ...CALL_RESOURCES,
  ...CONSOLE_RESOURCES,
  ...LIVE_PAGE_DATA,
];
const PAGES = ALL.filter((route) => route.path !== CATCH_ALL && !RESOURCES.includes(route.path));

const MAIN = "routes/layouts/main.tsx";
const SOON = "routes/layouts/soon.tsx";
const CONSOLE = "routes/layouts/console.tsx";
const SOON_PATHS = ["/blog", "/blog/:page", "/medical-providers"];
/**
 * Pages beyond the product's required routes: a provider's profile, the demo checkout, a printable
 * receipt, the e-mail list confirmation, the health-data rights page, the page after an account
 * is deleted, two-step login (its setup, the login's code step and the lost-device link), and one
 * visit's own page (its waiting room, chat and summary).
 */
const EXTRA_PAGES = [
  "/find-a-doctor/:page",
  "/checkout/:checkoutId",
  "/my-profile/billing-history/:invoiceId",
  "/confirm-subscription",
  "/my-profile/health-data",
  "/account-deleted",
  "/my-profile/security",
  "/login/second-factor",
  "/login/lost-device",
  "/sign-up/confirm",
  "/console",
  "/console/visits/:id",
  "/my-profile/consultations/:consultationId",
];

describe("the route table", () => {
  it("has an entry for every route of routes.ts, and a route for every entry", () => {
    expect(PAGES.map((route) => route.path).sort()).toEqual([...ROUTE_PATHS].sort());
  });

  it("has the catch-all that sends unknown paths to /", () => {
    expect(ALL.filter((route) => route.path === CATCH_ALL)).toHaveLength(1);
  });

  it("serves /robots.txt, /sitemap.xml, the form endpoints and downloads as resource routes outside the layouts", () => {
    const resources = ALL.filter((route) => RESOURCES.includes(route.path));
    expect(resources.map((route) => route.path).sort()).toEqual([...RESOURCES].sort());
    for (const route of resources) {
      expect(route.layout).toBeNull();
      expect(route.file).toMatch(/\.ts$/);
    }
  });

  it("lists the 48 specified routes and the extra pages, with their flags", () => {
    expect(ROUTE_PATHS).toHaveLength(48 + EXTRA_PAGES.length);
    const flagged = (flag: "requiresAuthentication" | "notAuthenticated") =>
      ROUTE_PATHS.filter(
        (path) => ROUTE_ACCESS[path][flag as keyof (typeof ROUTE_ACCESS)[typeof path]],
      ).sort();
    expect(flagged("requiresAuthentication")).toEqual(
      [
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
      ].sort(),
    );
    expect(flagged("notAuthenticated")).toEqual([
      "/forgot-password",
      "/login",
      "/login/lost-device",
      "/login/second-factor",
      "/reset-password",
      "/sign-up",
      "/sign-up/confirm",
    ]);
    expect([...REDIRECT_HOME_WHEN_LOGGED_IN].sort()).toEqual(["/login", "/sign-up"]);
  });

  it("puts /blog, /blog/:page and /medical-providers in the soon layout, the console in its own, and the rest in the main one", () => {
    for (const route of PAGES) {
      const expected = SOON_PATHS.includes(route.path)
        ? SOON
        : route.path === "/console" || route.path.startsWith("/console/")
          ? CONSOLE
          : MAIN;
      expect(route.layout, route.path).toBe(expected);
    }
  });

  it("gives the console to clinicians and the patient's own pages to patients; the second factor's setup to both", () => {
    const byRole = (role: "patient" | "clinician") =>
      ROUTE_PATHS.filter((path) => (ROUTE_ACCESS[path] as RouteAccess).role === role).sort();
    expect(byRole("clinician")).toEqual(["/console", "/console/visits/:id"]);
    expect(byRole("patient")).toEqual(
      [
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
      ].sort(),
    );
    // A role only means something behind a login.
    for (const path of ROUTE_PATHS) {
      const access = ROUTE_ACCESS[path] as RouteAccess;
      if (access.role) expect(access.requiresAuthentication, path).toBe(true);
    }
    expect((ROUTE_ACCESS["/my-profile/security"] as RouteAccess).role).toBeUndefined();
  });
});

const LOGGED_IN = "isLoggedIn=true; fltAccessToken=care-token; accessToken=main-token; userID=7; fltUserId=9";

/**
 * Protected loaders verify the session with `GET /api/auth/me` (session.server.ts requireUser): a
 * local server plays the API and accepts the logged-in visitor's token. The membership pages also
 * ask the care API (same server here): no membership, no invoices, and no checkout or invoice by the
 * test's id. The route modules read API_URL when they first load, below.
 */
const CARE_ANSWERS: Record<string, { status: number; body: unknown }> = {
  "/ambercare/get-subscription/9": { status: 200, body: { data: null } },
  "/ambercare/invoices": { status: 200, body: { data: [] } },
  "/ambercare/checkout/some-page": { status: 404, body: { error: "This checkout does not exist." } },
  "/ambercare/invoices/some-page": { status: 404, body: { error: "This invoice does not exist." } },
  "/ambercare/support-messages": { status: 200, body: { data: [] } },
  "/ambercare/my-data/consents": {
    status: 200,
    body: { data: { optional_processing: { granted: false, recorded_at: null } } },
  },
};

/** Clinicians' main tokens: one with the second factor on, one still without it. */
const CLINICIAN_TOKENS = ["clinician-token", "clinician-setup-token"];
const CLINICIAN_PROFILE = {
  user_id: JANE_ACCOUNT.id,
  email: JANE_ACCOUNT.email,
  name: "Casey Carter",
  provider: {
    id: "3f0c2d1e-4b5a-4c6d-8e7f-9a0b1c2d3e4f",
    slug: "casey-carter-demo",
    name: "Casey Carter, MD",
    credentials: "MD",
  },
};
/** `GET /api/care-team/me` by token: the API's guards.clinician. */
const CONSOLE_ANSWERS: Record<string, { status: number; body: unknown }> = {
  "Bearer clinician-token": { status: 200, body: { data: CLINICIAN_PROFILE } },
  "Bearer clinician-setup-token": {
    status: 403,
    body: {
      error: "Set up two-step login before using the care console",
      code: "SECOND_FACTOR_SETUP_REQUIRED",
    },
  },
};
/** The console's own reads for the clinician with the factor on: nobody waiting, off duty. */
const EMPTY_LIST = { data: [], meta: { page: 1, per_page: 1, total: 0 } };
const OFF_DUTY = { data: { on_duty: false, since: null, expected_wait_minutes: null } };
const CONSOLE_READS: Record<string, unknown> = {
  "/api/v1/api/care-team/queue": EMPTY_LIST,
  "/api/v1/api/care-team/visits": EMPTY_LIST,
  "/api/v1/api/care-team/duty": OFF_DUTY,
};
const NOT_A_CLINICIAN = {
  status: 403,
  body: { error: "This call is for clinicians", code: "CLINICIAN_ONLY" },
};
const CLINICIAN =
  "isLoggedIn=true; fltAccessToken=care-token; accessToken=clinician-token; userID=7; fltUserId=9";
const CLINICIAN_WITHOUT_FACTOR =
  "isLoggedIn=true; fltAccessToken=care-token; accessToken=clinician-setup-token; userID=7; fltUserId=9";

let api: Server;
beforeAll(async () => {
  api = createServer((req, res) => {
    // The patient's own care-API lists (consultations, visit records, documents, audit log): empty
    // for this visitor.
    const careList = /^\/ambercare\/(consultations|medical-records\/(documents|visits)|audit-log)(\?|$)/.test(
      req.url ?? "",
    );
    if (careList && req.headers.authorization === "Bearer care-token") {
      const empty = { data: [], meta: { page: 1, per_page: 1, total: 0 } };
      res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(empty));
      return;
    }
    const care = CARE_ANSWERS[req.url ?? ""];
    if (care && req.headers.authorization === "Bearer care-token") {
      res.writeHead(care.status, { "Content-Type": "application/json" }).end(JSON.stringify(care.body));
      return;
    }
    if (req.url === "/api/v1/api/auth/second-factor" && req.headers.authorization === "Bearer main-token") {
      const off = { data: { enabled: false, recovery_codes_left: 0, pending_setup: null } };
      res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(off));
      return;
    }
    const clinicianToken = CLINICIAN_TOKENS.find((token) => req.headers.authorization === `Bearer ${token}`);
    if (req.url === "/api/v1/api/auth/me" && clinicianToken) {
      const clinician = { data: { ...JANE_ACCOUNT, role: "clinician" } };
      res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(clinician));
      return;
    }
    const consoleRead = CONSOLE_READS[req.url ?? ""];
    if (consoleRead && req.headers.authorization === "Bearer clinician-token") {
      res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(consoleRead));
      return;
    }
    if (req.url === "/api/v1/api/care-team/me") {
      const answer = CONSOLE_ANSWERS[req.headers.authorization ?? ""] ?? NOT_A_CLINICIAN;
      res.writeHead(answer.status, { "Content-Type": "application/json" }).end(JSON.stringify(answer.body));
      return;
    }
    if (req.url === "/api/v1/api/auth/second-factor" && clinicianToken) {
      const off = { data: { enabled: false, recovery_codes_left: 0, pending_setup: null } };
      res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(off));
      return;
    }
    const ok = req.url === "/api/v1/api/auth/me" && req.headers.authorization === "Bearer main-token";
    const body = ok
      ? {
          data: JANE_ACCOUNT,
        }
      : { error: "Invalid access token" };
    res.writeHead(ok ? 200 : 401, { "Content-Type": "application/json" }).end(JSON.stringify(body));
  });
  api.listen(0, "127.0.0.1");
  await once(api, "listening");
  vi.stubEnv("API_URL", `http://127.0.0.1:${(api.address() as AddressInfo).port}`);
  // Load every route module once here, so the first test does not pay for compiling the app.
  await Promise.all(PAGES.map((route) => import(/* @vite-ignore */ `${APP_DIR}${route.file}`)));
}, 120_000);
afterAll(() => {
  vi.unstubAllEnvs();
  api.closeAllConnections();
  api.close();
});

function concrete(path: string): string {
  return path.replace(/:\w+/, "some-page");
}

async function runLoader(route: Flat, cookie?: string): Promise<{ value?: unknown; thrown?: unknown }> {
  const module = (await import(/* @vite-ignore */ `${APP_DIR}${route.file}`)) as {
    loader?: (args: {
      request: Request;
      params: Record<string, string>;
      context: object;
    }) => Promise<unknown>;
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
          page: "some-page",
          checkoutId: "some-page",
          invoiceId: "some-page",
          consultationId: "some-page",
        },
        context: {},
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

describe("every route's loader enforces its entry", () => {
  it.each(PAGES)("$path names its own entry on the first line of its loader", (route) => {
    const source = readFileSync(`${APP_DIR}${route.file}`, "utf8");
    const loader = source.slice(source.indexOf("export async function loader"));
    const firstStatement = loader.split("\n")[1] ?? "";
    expect(firstStatement).toContain(`requireRouteAccess(request, "${route.path}")`);
  });

  it.each(PAGES)(
    "$path behaves as its flags say, for anonymous and logged-in visitors",
    async (route) => {
      const access = ROUTE_ACCESS[route.path as RoutePath] as RouteAccess;
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
      if (route.path === "/careers/:page") {
        // "some-page" is no opening: a real 404, for everyone.
        expect(statusOf(anonymous.thrown)).toBe(404);
        expect(statusOf(loggedIn.thrown)).toBe(404);
        return;
      }
      if (access.requiresAuthentication) {
        expect(redirectOf(anonymous.thrown)).toBe(`/login?redirectTo=${back}`);
        // The logged-in visitor here is a patient: the console refuses them.
        if (access.role === "clinician") expect(statusOf(loggedIn.thrown)).toBe(403);
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
  const pageOf = (path: string) => {
    const route = PAGES.find((page) => page.path === path);
    if (!route) throw new Error(`no page ${path}`);
    return route;
  };
  const patientPages = ROUTE_PATHS.filter((path) => (ROUTE_ACCESS[path] as RouteAccess).role === "patient");

  it.each(patientPages)("%s sends a clinician to /console", async (path) => {
    const { thrown } = await runLoader(pageOf(path), CLINICIAN);
    expect(redirectOf(thrown)).toBe("/console");
  });

  it("opens /console to a clinician with the second factor on, with who they are and their provider", async () => {
    const page = await runLoader(pageOf("/console"), CLINICIAN);
    expect(page.thrown).toBeUndefined();
    // The page shows the clinician's queue, visits and duty; the layout says who they are.
    expect((page.value as { data: unknown }).data).toEqual({
      queue: [],
      visits: [],
      duty: OFF_DUTY.data,
    });
    const layout = (await import(`${APP_DIR}routes/layouts/console.tsx`)) as {
      loader(args: { request: Request; params: object; context: object }): Promise<unknown>;
    };
    const request = new Request("http://localhost/console", { headers: { Cookie: CLINICIAN } });
    expect(await layout.loader({ request, params: {}, context: {} })).toEqual({
      clinician: CLINICIAN_PROFILE,
    });
  });

  it("sends a clinician without the second factor from /console to its setup, which stays open to them", async () => {
    const { thrown } = await runLoader(pageOf("/console"), CLINICIAN_WITHOUT_FACTOR);
    expect(redirectOf(thrown)).toBe("/my-profile/security");
    const setup = await runLoader(pageOf("/my-profile/security"), CLINICIAN_WITHOUT_FACTOR);
    expect(setup.thrown).toBeUndefined();
  });

  it("refuses /console and its layout to a patient with 403", async () => {
    expect(statusOf((await runLoader(pageOf("/console"), LOGGED_IN)).thrown)).toBe(403);
    const layout = (await import(`${APP_DIR}routes/layouts/console.tsx`)) as {
      loader(args: { request: Request; params: object; context: object }): Promise<unknown>;
    };
    const request = new Request("http://localhost/console", { headers: { Cookie: LOGGED_IN } });
    const refused = await layout
      .loader({ request, params: {}, context: {} })
      .catch((error: unknown) => error);
    expect(statusOf(refused)).toBe(403);
  });
});
