import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { SESSION_COOKIES } from "@ambercare/contracts/session";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { safeRedirect } from "#app/lib/misc.ts";
import {
  clearSessionCookies,
  getUser,
  loginCookies,
  loginUrl,
  logout,
  readSession,
  requireAnonymous,
  requireRouteAccess,
  requireRouteClinician,
  requireRouteUser,
  requireUser,
  type SessionApiDeps,
  sessionCookie,
} from "#app/lib/session.server.ts";
import { JANE_ACCOUNT } from "#app/lib/test-support.ts";

const FULL = "isLoggedIn=true; fltAccessToken=care-token; accessToken=main-token; userID=7; fltUserId=9";

function request(path: string, cookie?: string): Request {
  return new Request(`http://localhost${path}`, { headers: cookie ? { Cookie: cookie } : {} });
}

async function thrownBy(promise: Promise<unknown>): Promise<Response> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof Response) return error;
    throw error;
  }
  throw new Error("expected a thrown Response");
}

describe("reading the session", () => {
  it("reads the spec's cookies by name and ignores the rest", () => {
    expect(readSession(request("/", `${FULL}; other=1; isSubscribed=true`))).toEqual({
      isLoggedIn: "true",
      fltAccessToken: "care-token",
      accessToken: "main-token",
      userID: "7",
      fltUserId: "9",
      isSubscribed: "true",
    });
  });

  it("is fully logged in only with the login flag and the care token", () => {
    expect(getUser(request("/", FULL))).toEqual({
      userId: "7",
      accessToken: "main-token",
      careUserId: "9",
      careAccessToken: "care-token",
    });
    expect(getUser(request("/", "isLoggedIn=true"))).toBeNull();
    expect(getUser(request("/", "isLoggedIn=true; fltAccessToken="))).toBeNull();
    expect(getUser(request("/", "isLoggedIn=false; fltAccessToken=t"))).toBeNull();
    expect(getUser(request("/", "fltAccessToken=t"))).toBeNull();
    expect(getUser(request("/"))).toBeNull();
  });
});

/**
 * A real HTTP server playing both APIs for requireUser: `GET /api/v1/api/auth/me` and
 * `GET /ambercare/get-user-details/{id}` accept only the tokens in `liveTokens`.
 */
const ACCOUNT = JANE_ACCOUNT;
let apiServer: Server;
let deps: SessionApiDeps;
let liveTokens = new Set<string>();
let apiCalls: string[] = [];

beforeAll(async () => {
  apiServer = createServer((req, res) => {
    apiCalls.push(`${req.method} ${req.url} ${req.headers.authorization ?? ""}`);
    const token = req.headers.authorization?.replace(/^Bearer /, "") ?? "";
    const known =
      req.url === "/api/v1/api/auth/me" || req.url === `/ambercare/get-user-details/${ACCOUNT.id}`;
    const [status, body] = !known
      ? [404, { error: "No route" }]
      : liveTokens.has(token)
        ? [200, { data: { ...ACCOUNT, added_later: "ignored" } }]
        : [401, { error: "Invalid access token" }];
    res.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify(body));
  });
  apiServer.listen(0, "127.0.0.1");
  await once(apiServer, "listening");
  const origin = `http://127.0.0.1:${(apiServer.address() as AddressInfo).port}`;
  deps = { mainApiBase: `${origin}/api/v1`, careApiBase: origin, productSlug: "ambercare" };
});
afterAll(() => {
  apiServer.closeAllConnections();
  apiServer.close();
});
beforeEach(() => {
  liveTokens = new Set(["main-token", "care-token"]);
  apiCalls = [];
});

describe("requireUser", () => {
  it("verifies the session with GET /api/auth/me and returns the user with the account", async () => {
    const user = await requireUser(request("/my-profile", FULL), deps);
    expect(user).toMatchObject({ userId: "7", careAccessToken: "care-token", account: ACCOUNT });
    expect(user.account).not.toHaveProperty("added_later");
    expect(apiCalls).toEqual(["GET /api/v1/api/auth/me Bearer main-token"]);
  });

  it("asks the API once per request however many helpers call it", async () => {
    const req = request("/my-profile", FULL);
    await Promise.all([
      requireUser(req, deps),
      requireUser(req, deps),
      requireRouteAccess(req, "/my-profile", deps),
    ]);
    expect(apiCalls).toHaveLength(1);
  });

  it("uses the care API's get-user-details when only the care login exists", async () => {
    const user = await requireUser(
      request("/my-profile", `isLoggedIn=true; fltAccessToken=care-token; fltUserId=${ACCOUNT.id}`),
      deps,
    );
    expect(user.account.email).toBe(ACCOUNT.email);
    expect(apiCalls).toEqual([`GET /ambercare/get-user-details/${ACCOUNT.id} Bearer care-token`]);
  });

  it("turns a 401 from the main API into the logout event: cookies cleared, → /login", async () => {
    liveTokens.delete("main-token");
    const response = await thrownBy(requireUser(request("/my-profile/messages?thread=3", FULL), deps));
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(
      `/login?redirectTo=${encodeURIComponent("/my-profile/messages?thread=3")}`,
    );
    const cleared = response.headers.getSetCookie();
    expect(cleared).toHaveLength(Object.keys(SESSION_COOKIES).length);
    expect(cleared.every((cookie) => cookie.includes("Max-Age=0"))).toBe(true);
  });

  it("logs out a session the care API refuses, and one with no user id to check", async () => {
    liveTokens.delete("care-token");
    const refused = await thrownBy(
      requireUser(
        request("/my-profile", `isLoggedIn=true; fltAccessToken=care-token; fltUserId=${ACCOUNT.id}`),
        deps,
      ),
    );
    expect(refused.headers.get("Location")).toBe("/login?redirectTo=%2Fmy-profile");
    const noId = await thrownBy(
      requireUser(request("/my-profile", "isLoggedIn=true; fltAccessToken=x"), deps),
    );
    expect(noId.headers.get("Location")).toBe("/login?redirectTo=%2Fmy-profile");
    expect(noId.headers.getSetCookie().length).toBeGreaterThan(0);
  });

  it("lets other API failures through as errors (the error page), never as a logout", async () => {
    const broken = { ...deps, mainApiBase: `${deps.careApiBase}/nowhere` };
    await expect(requireUser(request("/my-profile", FULL), broken)).rejects.toMatchObject({ status: 404 });
  });

  it("sends anonymous visitors to /login with the page and its query to come back to", async () => {
    const response = await thrownBy(requireUser(request("/my-profile")));
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/login?redirectTo=%2Fmy-profile");
    const withQuery = await thrownBy(requireUser(request("/my-profile/messages?thread=3&x=a%20b")));
    expect(withQuery.headers.get("Location")).toBe(
      `/login?redirectTo=${encodeURIComponent("/my-profile/messages?thread=3&x=a%20b")}`,
    );
  });

  it("never builds an off-site redirectTo", () => {
    expect(loginUrl(request("//evil.example/path"))).not.toContain("evil");
    expect(loginUrl(request("/"))).toBe("/login");
  });
});

describe("requireAnonymous", () => {
  it("lets anonymous visitors in", async () => {
    await expect(requireAnonymous(request("/login"))).resolves.toEqual({ alreadyLoggedIn: false });
    await expect(requireAnonymous(request("/reset-password"))).resolves.toEqual({ alreadyLoggedIn: false });
  });

  it("redirects logged-in visitors from /login and /sign-up to /", async () => {
    for (const path of ["/login", "/sign-up", "/login/", "/sign-up?x=1"]) {
      const response = await thrownBy(requireAnonymous(request(path, FULL)));
      expect(response.headers.get("Location"), path).toBe("/");
    }
  });

  it("flags the other logged-out-only pages as forbidden without redirecting", async () => {
    await expect(requireAnonymous(request("/forgot-password", FULL))).resolves.toEqual({
      alreadyLoggedIn: true,
    });
    await expect(requireAnonymous(request("/reset-password?token=x", FULL))).resolves.toEqual({
      alreadyLoggedIn: true,
    });
  });
});

describe("requireRouteAccess", () => {
  it("follows the table", async () => {
    await expect(requireRouteAccess(request("/about"), "/about")).resolves.toEqual({
      user: null,
      alreadyLoggedIn: false,
    });
    await expect(requireRouteAccess(request("/about", FULL), "/about")).resolves.toMatchObject({
      user: { userId: "7" },
    });
    const response = await thrownBy(requireRouteAccess(request("/consultation/form"), "/consultation/form"));
    expect(response.headers.get("Location")).toBe("/login?redirectTo=%2Fconsultation%2Fform");
    await expect(requireRouteAccess(request("/forgot-password", FULL), "/forgot-password")).resolves.toEqual({
      user: null,
      alreadyLoggedIn: true,
    });
  });

  it("reads the rule of the route React Router matched, or of the page above a resource route", async () => {
    const toLogin = async (path: string, pattern: string) =>
      (await thrownBy(requireRouteAccess(request(path), pattern))).headers.get("Location");
    // The pattern as the router hands it to loaders: no leading slash, parameters unfilled.
    expect(await toLogin("/console/visits/9", "console/visits/:id")).toBe(
      "/login?redirectTo=%2Fconsole%2Fvisits%2F9",
    );
    expect(await toLogin("/console/visits/9/notes", "console/visits/:id/notes")).toBe(
      "/login?redirectTo=%2Fconsole%2Fvisits%2F9%2Fnotes",
    );
    await expect(requireRouteAccess(request("/"), "")).resolves.toEqual({
      user: null,
      alreadyLoggedIn: false,
    });
    await expect(requireRouteAccess(request("/newsletter"), "newsletter")).rejects.toThrow(/No page/);
  });

  it("refuses to give a user to a loader whose page requires no login", async () => {
    await expect(requireRouteUser(request("/about", FULL), "about")).rejects.toThrow(/requires no login/);
    await expect(requireRouteClinician(request("/my-profile", FULL), "my-profile")).rejects.toThrow(
      /not a clinician's page/,
    );
  });
});

describe("session cookies", () => {
  it("are HttpOnly, SameSite=Lax, with the spec's lifetimes, Secure when asked", () => {
    expect(sessionCookie("accessToken", "a b", { secure: false })).toBe(
      "accessToken=a%20b; Path=/; Max-Age=18000; HttpOnly; SameSite=Lax",
    );
    expect(sessionCookie("fltUserId", "9", { secure: true })).toBe(
      "fltUserId=9; Path=/; Max-Age=86400; HttpOnly; SameSite=Lax; Secure",
    );
    expect(sessionCookie("availabilityToday", "1", { secure: false })).toContain("Max-Age=3600;");
  });

  it("start a session after both logins: tokens HttpOnly with the spec's lifetimes, the rest cleared", () => {
    const cookies = loginCookies(
      { main: { accessToken: "m t", userId: "u1" }, care: { accessToken: "c", userId: "u2" } },
      { secure: true },
    );
    expect(cookies).toHaveLength(Object.keys(SESSION_COOKIES).length);
    expect(cookies).toContain("isLoggedIn=true; Path=/; Max-Age=18000; HttpOnly; SameSite=Lax; Secure");
    expect(cookies).toContain("accessToken=m%20t; Path=/; Max-Age=18000; HttpOnly; SameSite=Lax; Secure");
    expect(cookies).toContain("userID=u1; Path=/; Max-Age=18000; HttpOnly; SameSite=Lax; Secure");
    expect(cookies).toContain("fltAccessToken=c; Path=/; Max-Age=18000; HttpOnly; SameSite=Lax; Secure");
    expect(cookies).toContain("fltUserId=u2; Path=/; Max-Age=86400; HttpOnly; SameSite=Lax; Secure");
    expect(cookies).toContain("isSubscribed=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax; Secure");
  });

  it("are all cleared with Max-Age=0", () => {
    const cleared = clearSessionCookies({ secure: false });
    expect(cleared).toHaveLength(Object.keys(SESSION_COOKIES).length);
    for (const name of Object.values(SESSION_COOKIES)) {
      expect(cleared).toContain(`${name}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax`);
    }
  });

  it("logout clears every cookie, redirects to /login and calls the revocation seam", async () => {
    const revoked: string[] = [];
    const response = await thrownBy(
      logout(request("/logout", FULL), {
        revokeTokens: async (user) => {
          revoked.push(user.careAccessToken);
        },
      }),
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/login");
    const setCookies = response.headers.getSetCookie();
    expect(setCookies).toHaveLength(12);
    expect(setCookies.every((cookie) => cookie.includes("Max-Age=0"))).toBe(true);
    expect(revoked).toEqual(["care-token"]);
  });

  it("logs out even when revoking the tokens fails", async () => {
    const response = await thrownBy(
      logout(request("/logout", FULL), {
        revokeTokens: async () => {
          throw new Error("API down");
        },
      }),
    );
    expect(response.headers.get("Location")).toBe("/login");
  });
});

describe("safeRedirect", () => {
  it("keeps same-site relative paths", () => {
    expect(safeRedirect("/my-profile")).toBe("/my-profile");
    expect(safeRedirect("/my-profile/messages?thread=3#top")).toBe("/my-profile/messages?thread=3#top");
  });

  it.each([
    "https://evil.example",
    "//evil.example",
    "/\\evil.example",
    "\\\\evil.example",
    "javascript:alert(1)",
    "evil",
    "/\t/evil.example",
    "",
    null,
    undefined,
  ])("refuses %s", (to) => {
    expect(safeRedirect(to, "/fallback")).toBe("/fallback");
  });
});
