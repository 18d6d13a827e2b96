import { SESSION_COOKIES } from "@ambercare/contracts/session";
import { describe, expect, it } from "vitest";
import { safeRedirect } from "./misc.ts";
import {
  clearSessionCookies,
  getUser,
  loginUrl,
  logout,
  readSession,
  requireAnonymous,
  requireRouteAccess,
  requireUser,
  sessionCookie,
} from "./session.server.ts";

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

  it("is fully logged in only with the login flag and the care token (spec §4)", () => {
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

describe("requireUser", () => {
  it("returns the logged-in user", async () => {
    await expect(requireUser(request("/my-profile", FULL))).resolves.toMatchObject({
      careAccessToken: "care-token",
    });
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

  it("redirects logged-in visitors from /login and /sign-up to / (spec §6)", async () => {
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
