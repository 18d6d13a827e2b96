import {
  isFullyLoggedIn,
  SESSION_COOKIE_MAX_AGE,
  SESSION_COOKIES,
  type SessionCookieName,
} from "@ambercare/contracts/session";
import { redirect } from "react-router";
import { isSecureRequest } from "./env.server.ts";
import { readCookie } from "./locale.server.ts";
import { safeRedirect } from "./misc.ts";
import { REDIRECT_HOME_WHEN_LOGGED_IN, type RoutePath, routeAccess } from "./route-access.ts";

/**
 * The session lives in the cookies of spec §3 (names from SESSION_COOKIES), all HttpOnly,
 * SameSite=Lax, Secure in production: browser JavaScript never sees a token.
 */
export type SessionValues = Partial<Record<SessionCookieName, string>>;

/** A fully logged-in visitor (spec §4: the login flag and the care API token are both present). */
export type SessionUser = {
  /** Main API user id and token (`userID`, `accessToken`); empty when only the care login exists. */
  userId: string | null;
  accessToken: string | null;
  /** Care API user id and token (`fltUserId`, `fltAccessToken`). */
  careUserId: string | null;
  careAccessToken: string;
};

const COOKIE_NAMES = Object.values(SESSION_COOKIES);

export function readSession(request: Request): SessionValues {
  const header = request.headers.get("Cookie");
  const values: SessionValues = {};
  for (const name of COOKIE_NAMES) {
    const value = readCookie(header, name);
    if (value !== undefined) values[name] = value;
  }
  return values;
}

/** The logged-in visitor, or `null` when the session is not fully logged in. */
export function getUser(request: Request): SessionUser | null {
  const session = readSession(request);
  if (!isFullyLoggedIn(session) || !session.fltAccessToken) return null;
  return {
    userId: session.userID || null,
    accessToken: session.accessToken || null,
    careUserId: session.fltUserId || null,
    careAccessToken: session.fltAccessToken,
  };
}

export function isLoggedIn(request: Request): boolean {
  return getUser(request) !== null;
}

/** `/login?redirectTo=<path+search>` for the page the visitor asked for. */
export function loginUrl(request: Request): string {
  const url = new URL(request.url);
  const back = safeRedirect(`${url.pathname}${url.search}`, "/");
  if (back === "/") return "/login";
  return `/login?${new URLSearchParams({ redirectTo: back })}`;
}

/** The logged-in visitor; anonymous visitors are sent to /login with the page to come back to. */
export async function requireUser(request: Request): Promise<SessionUser> {
  const user = getUser(request);
  if (!user) throw redirect(loginUrl(request));
  return user;
}

/**
 * For pages meant for logged-out visitors. On /login and /sign-up a logged-in visitor is redirected
 * to /; elsewhere (forgot/reset password) the page is "forbidden": `alreadyLoggedIn` is true and the
 * page shows a short "You are already logged in" message instead of its form.
 */
export async function requireAnonymous(request: Request): Promise<{ alreadyLoggedIn: boolean }> {
  if (!isLoggedIn(request)) return { alreadyLoggedIn: false };
  const path = new URL(request.url).pathname.replace(/\/+$/, "") || "/";
  if ((REDIRECT_HOME_WHEN_LOGGED_IN as readonly string[]).includes(path)) throw redirect("/");
  return { alreadyLoggedIn: true };
}

export type RouteAccessResult = { user: SessionUser | null; alreadyLoggedIn: boolean };

/**
 * Enforces the route's entry in the ROUTE_ACCESS table: call it on the first line of every loader
 * and action, `await requireRouteAccess(request, "/my-profile")`.
 */
export async function requireRouteAccess(request: Request, path: RoutePath): Promise<RouteAccessResult> {
  const access = routeAccess(path);
  if (access.requiresAuthentication) {
    return { user: await requireUser(request), alreadyLoggedIn: false };
  }
  if (access.notAuthenticated) {
    const { alreadyLoggedIn } = await requireAnonymous(request);
    return { user: null, alreadyLoggedIn };
  }
  return { user: getUser(request), alreadyLoggedIn: false };
}

type CookieOptions = {
  /** `isSecureRequest(request)`: Secure whenever the site is served over HTTPS. */
  secure: boolean;
  /** Defaults to the cookie's lifetime from spec §9 (SESSION_COOKIE_MAX_AGE). */
  maxAge?: number;
};

/** A Set-Cookie value for one session cookie: HttpOnly, SameSite=Lax, Path=/. */
export function sessionCookie(name: SessionCookieName, value: string, options: CookieOptions): string {
  const maxAge = options.maxAge ?? SESSION_COOKIE_MAX_AGE[name];
  const secure = options.secure ? "; Secure" : "";
  return `${name}=${encodeURIComponent(value)}; Path=/; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure}`;
}

/** Set-Cookie values that clear every session cookie (Max-Age=0). */
export function clearSessionCookies(options: Pick<CookieOptions, "secure">): string[] {
  return COOKIE_NAMES.map((name) => sessionCookie(name, "", { secure: options.secure, maxAge: 0 }));
}

export function headersWithCookies(cookies: readonly string[], init?: HeadersInit): Headers {
  const headers = new Headers(init);
  for (const cookie of cookies) headers.append("Set-Cookie", cookie);
  return headers;
}

/**
 * Logs out: clears every session cookie and sends the visitor to /login (spec §4; the spec's 10 ms
 * LOGOUT_REDIRECT_DELAY_MS is met by the immediate server redirect).
 *
 * Seam for the accounts issue: revoke the tokens with both APIs (`POST /api/auth/logout` on the
 * main API) before clearing the cookies — `revokeTokens` receives the user of the ending session.
 */
export async function logout(
  request: Request,
  { revokeTokens }: { revokeTokens?: (user: SessionUser) => Promise<void> } = {},
): Promise<never> {
  const user = getUser(request);
  if (user && revokeTokens) {
    try {
      await revokeTokens(user);
    } catch {
      // The cookies are cleared whatever the API says: the visitor asked to leave.
    }
  }
  throw redirect("/login", {
    headers: headersWithCookies(clearSessionCookies({ secure: isSecureRequest(request) })),
  });
}
