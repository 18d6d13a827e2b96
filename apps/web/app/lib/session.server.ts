import type { User } from "@ambercare/contracts/auth";
import type { OperatorProfile } from "@ambercare/contracts/operations";
import type { ClinicianProfile } from "@ambercare/contracts/roles";
import {
  isFullyLoggedIn,
  SESSION_COOKIE_MAX_AGE,
  SESSION_COOKIES,
  type SessionCookieName,
} from "@ambercare/contracts/session";
import { data, redirect } from "react-router";
import { createApiClient, isApiError } from "#app/lib/api-client.server.ts";
import { readCookies, setCookieHeader } from "#app/lib/cookies.server.ts";
import { apiBases, env, isSecureRequest } from "#app/lib/env.server.ts";
import { rememberSession } from "#app/lib/known-sessions.server.ts";
import { safeRedirect } from "#app/lib/misc.ts";
import {
  CONSOLE_HOME,
  OPERATIONS_HOME,
  type PAGES,
  pageOfPattern,
  REDIRECT_HOME_WHEN_LOGGED_IN,
  type RouteAccess,
  type RoutePath,
  routeAccess,
  SECOND_FACTOR_SETUP_PAGE,
} from "#app/lib/pages.ts";
import { createRouteClient } from "#app/lib/route-client.server.ts";
import { reconcileTimeZone } from "#app/lib/time-zone.server.ts";

/**
 * The session lives in cookies (names from SESSION_COOKIES), all HttpOnly,
 * SameSite=Lax, Secure in production: browser JavaScript never sees a token.
 */
export type SessionValues = Partial<Record<SessionCookieName, string>>;

/** A fully logged-in visitor (the login flag and the care API token are both present). */
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
  return readSessionCookies(request.headers.get("Cookie"));
}

/** The session cookies of a `Cookie` header (the live events relay reads an upgrade's). */
export function readSessionCookies(cookieHeader: string | null | undefined): SessionValues {
  // One parse for all twelve names (ADR 022).
  const cookies = readCookies(cookieHeader);
  const values: SessionValues = {};
  for (const name of COOKIE_NAMES) {
    const value = cookies[name];
    if (value !== undefined) values[name] = value;
  }
  return values;
}

/** The logged-in visitor, or `null` when the session is not fully logged in. */
export function getUser(request: Request): SessionUser | null {
  return sessionUserOf(readSession(request));
}

/** The logged-in visitor of these session cookies, or `null` when not fully logged in. */
export function sessionUserOf(session: SessionValues): SessionUser | null {
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

/**
 * The logout event as a response to throw: every session cookie cleared and the visitor
 * sent to /login, with the page to come back to. A 401 from the main API anywhere ends here
 * (`userApi()` in api.server.ts throws it from the API client's onUnauthorized seam).
 */
export function logoutEvent(request: Request): Response {
  return redirect(loginUrl(request), {
    headers: headersWithCookies(clearSessionCookies({ secure: isSecureRequest(request) })),
  });
}

/** A session whose tokens the API has just accepted, with the account it belongs to. */
export type VerifiedUser = SessionUser & {
  /** The account from `GET /api/auth/me` (or the care API's get-user-details). */
  account: User;
  /** On the console's pages (`role: "clinician"`): the clinician and their provider. */
  clinician?: ClinicianProfile;
  /** On the operations console's pages (`role: "operator"`): the operator. */
  operator?: OperatorProfile;
};

/** Where requireUser checks the session: the running APIs by default, a local server in tests. */
export type SessionApiDeps = {
  mainApiBase: string;
  careApiBase: string;
  productSlug: string;
  fetch?: typeof fetch;
};

const defaultDeps: SessionApiDeps = { ...apiBases, productSlug: env.PRODUCT_SLUG };

/**
 * Asks the API whose session this is: `GET /api/auth/me` with the main token, or, when only the care
 * login exists, `GET /{product}/get-user-details/{fltUserId}` with the care token. A 401 (expired,
 * revoked or unknown token) is the logout event; another failure is thrown (error page).
 */
export async function verifySession(
  request: Request,
  user: SessionUser,
  deps: SessionApiDeps = defaultDeps,
): Promise<VerifiedUser> {
  const onUnauthorized = () => {
    throw logoutEvent(request);
  };
  const transport = (baseUrl: string, token: string) =>
    createApiClient({ baseUrl, token, fetch: deps.fetch, onUnauthorized });
  let account: User;
  if (user.accessToken) {
    const main = transport(deps.mainApiBase, user.accessToken);
    account = (await createRouteClient({ main }, deps.productSlug).accounts.me()).data;
  } else if (user.careUserId) {
    const care = transport(deps.careApiBase, user.careAccessToken);
    const api = createRouteClient({ care }, deps.productSlug);
    account = (await api.accounts.getUserDetails({ params: { userId: user.careUserId } })).data;
  } else {
    throw logoutEvent(request);
  }
  // The API accepted it: the limit per visitor counts this session as its person from now on.
  rememberSession(user.accessToken ?? user.careAccessToken);
  return { ...user, account };
}

/**
 * Where a fresh login goes: a clinician to the console (or the page asked for); a patient to
 * `redirectTo`, unless the profile is not complete yet, then to /almost-there first, which continues
 * to `redirectTo` once the profile is saved. `cookies`: the profile's time zone for the browser, when
 * it has one (a patient's profile without one is given the browser's, time-zone.server.ts).
 */
export async function landingAfterLogin(
  request: Request,
  logins: SessionLogins,
  redirectTo: string,
  deps: SessionApiDeps = defaultDeps,
): Promise<{ to: string; cookies: string[] }> {
  const user: SessionUser = {
    userId: logins.main.userId,
    accessToken: logins.main.accessToken,
    careUserId: logins.care.userId,
    careAccessToken: logins.care.accessToken,
  };
  const { account } = await verifySession(request, user, deps);
  const care = createApiClient({ baseUrl: deps.careApiBase, token: user.careAccessToken, fetch: deps.fetch });
  const cookies = await reconcileTimeZone(
    request,
    account,
    (zone) =>
      createRouteClient({ care }, deps.productSlug).accounts.updateUser({
        body: { user_id: logins.care.userId, time_zone: zone },
      }),
    { secure: isSecureRequest(request) },
  );
  // A clinician's home is the console, whose own check sends one without a second factor to its
  // setup; the patient's profile steps are not theirs.
  if (account.role === "clinician") return { to: redirectTo === "/" ? CONSOLE_HOME : redirectTo, cookies };
  if (account.role === "operator") return { to: redirectTo === "/" ? OPERATIONS_HOME : redirectTo, cookies };
  if (account.profile_completed) return { to: redirectTo, cookies };
  const to = redirectTo === "/" ? "/almost-there" : `/almost-there?${new URLSearchParams({ redirectTo })}`;
  return { to, cookies };
}

/** One check per request, however many helpers ask. */
const verified = new WeakMap<Request, Promise<VerifiedUser>>();

/**
 * The logged-in visitor, verified with the API (see verifySession). Anonymous visitors are sent to
 * /login with the page to come back to; a session the API refuses is logged out the same way.
 */
export async function requireUser(request: Request, deps?: SessionApiDeps): Promise<VerifiedUser> {
  const user = getUser(request);
  if (!user) throw redirect(loginUrl(request));
  let check = verified.get(request);
  if (!check) {
    check = verifySession(request, user, deps);
    verified.set(request, check);
  }
  return check;
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
/** On a `requiresAuthentication` route the user is always there, verified with the API. */
export type ProtectedRouteAccessResult = { user: VerifiedUser; alreadyLoggedIn: false };
/** On a clinician's route, also the clinician and the provider they work as. */
export type ClinicianRouteAccessResult = {
  user: VerifiedUser & { clinician: ClinicianProfile };
  alreadyLoggedIn: false;
};

/** On an operator's route, also the operator. */
export type OperatorRouteAccessResult = {
  user: VerifiedUser & { operator: OperatorProfile };
  alreadyLoggedIn: false;
};

/** The paths whose page-table entry has the role "operator". */
export type OperatorRoutePath = {
  [P in RoutePath]: (typeof PAGES)[P] extends { access: { role: "operator" } } ? P : never;
}[RoutePath];

/** The paths whose page-table entry has the role "clinician". */
export type ClinicianRoutePath = {
  [P in RoutePath]: (typeof PAGES)[P] extends { access: { role: "clinician" } } ? P : never;
}[RoutePath];

/** A 403 page: the account is logged in, but this page is not for its role. */
function forbidden() {
  return data(null, { status: 403 });
}

type RouteClient = ReturnType<typeof createRouteClient>;

/**
 * A staff console's check, beyond the role the session's account has: the API's guard of that
 * console through its `me` call — `guards.clinician` (`GET /api/care-team/me`) for the care console,
 * `guards.operator` (`GET /api/operations/me`) for the operations console (ADR 065). An account whose
 * second factor is still off goes to its setup page; anyone else the API refuses gets 403. Made once
 * per request: a console's layout and its page both ask.
 */
function staffCheck<T>(ask: (api: RouteClient) => Promise<{ data: T }>) {
  const checked = new WeakMap<Request, Promise<T>>();
  async function fetchProfile(request: Request, user: VerifiedUser, deps: SessionApiDeps = defaultDeps) {
    if (!user.accessToken) throw logoutEvent(request);
    const main = createApiClient({
      baseUrl: deps.mainApiBase,
      token: user.accessToken,
      fetch: deps.fetch,
      onUnauthorized: () => {
        throw logoutEvent(request);
      },
    });
    try {
      return (await ask(createRouteClient({ main }, deps.productSlug))).data;
    } catch (error) {
      if (isApiError(error) && error.code === "SECOND_FACTOR_SETUP_REQUIRED") {
        throw redirect(SECOND_FACTOR_SETUP_PAGE);
      }
      if (isApiError(error) && error.status === 403) throw forbidden();
      throw error;
    }
  }
  return (request: Request, user: VerifiedUser, deps?: SessionApiDeps): Promise<T> => {
    let check = checked.get(request);
    if (!check) {
      check = fetchProfile(request, user, deps);
      checked.set(request, check);
    }
    return check;
  };
}

const requireConsoleClinician = staffCheck<ClinicianProfile>((api) => api.careTeam.me());
const requireOperator = staffCheck<OperatorProfile>((api) => api.operations.me());

/**
 * Applies a page's `role`: a clinician on a patient's page goes to the console, an operator to the
 * operations console; anyone but a clinician on the console's pages, and anyone but an operator on
 * the operations console's, gets 403.
 */
async function enforceRole(
  request: Request,
  access: RouteAccess,
  user: VerifiedUser,
  deps?: SessionApiDeps,
): Promise<VerifiedUser> {
  const role = user.account.role;
  if (access.role === "patient" && role === "clinician") throw redirect(CONSOLE_HOME);
  if (access.role === "patient" && role === "operator") throw redirect(OPERATIONS_HOME);
  if (access.role === "operator") {
    if (role !== "operator") throw forbidden();
    return { ...user, operator: await requireOperator(request, user, deps) };
  }
  if (access.role === "clinician") {
    if (role !== "clinician") throw forbidden();
    return { ...user, clinician: await requireConsoleClinician(request, user, deps) };
  }
  return user;
}

/** The paths whose page-table entry requires a login. */
export type ProtectedRoutePath = {
  [P in RoutePath]: (typeof PAGES)[P] extends { access: { requiresAuthentication: true } } ? P : never;
}[RoutePath];

/** The page whose rule applies to a route pattern; a route that is not a page has none to follow. */
function pageOf(pattern: string): RoutePath {
  const page = pageOfPattern(pattern);
  if (!page) throw new Error(`No page of the page table covers the route ${pattern}`);
  return page;
}

/**
 * Enforces the page's rule in the page table (lib/pages.ts) on the first line of every loader and
 * action: `await requireRouteAccess(request, pattern)`, with the `pattern` React Router matched (its
 * loader and action arguments carry it), so no page names itself. A resource route under a page
 * (`/console/visits/:id/notes`) follows that page's rule. On a protected page the session is
 * verified with the API (requireUser) and `user.account` is the account, and the page's `role` is
 * applied (enforceRole); on a clinician's page `user.clinician` is the clinician and provider.
 * Elsewhere `user` is read from the cookies only (no API call), or null. A loader that needs the
 * verified user calls requireRouteUser or requireRouteClinician instead. A page path instead of a
 * pattern gives that page's rule, typed by it.
 */
export async function requireRouteAccess<P extends string>(
  request: Request,
  pattern: P,
  deps?: SessionApiDeps,
): Promise<
  P extends ClinicianRoutePath
    ? ClinicianRouteAccessResult
    : P extends OperatorRoutePath
      ? OperatorRouteAccessResult
      : P extends ProtectedRoutePath
        ? ProtectedRouteAccessResult
        : RouteAccessResult
>;
export async function requireRouteAccess(
  request: Request,
  pattern: string,
  deps?: SessionApiDeps,
): Promise<RouteAccessResult> {
  return enforcePage(request, routeAccess(pageOf(pattern)), deps);
}

/**
 * requireRouteAccess for a loader that needs the verified user: its page must require a login in
 * the page table. A page that requires none is a mistake in the code, not the visitor's: it fails
 * (500) rather than open a page whose loader expects a user to anyone.
 */
export async function requireRouteUser(
  request: Request,
  pattern: string,
  deps?: SessionApiDeps,
): Promise<ProtectedRouteAccessResult> {
  const page = pageOf(pattern);
  const access = routeAccess(page);
  if (!access.requiresAuthentication) throw new Error(`${page} requires no login in the page table`);
  return (await enforcePage(request, access, deps)) as ProtectedRouteAccessResult;
}

/** requireRouteAccess for a loader of the care console: its page must be a clinician's. */
export async function requireRouteClinician(
  request: Request,
  pattern: string,
  deps?: SessionApiDeps,
): Promise<ClinicianRouteAccessResult> {
  const page = pageOf(pattern);
  const access = routeAccess(page);
  if (access.role !== "clinician") throw new Error(`${page} is not a clinician's page in the page table`);
  return (await enforcePage(request, access, deps)) as ClinicianRouteAccessResult;
}

/** requireRouteAccess for a loader of the operations console: its page must be an operator's. */
export async function requireRouteOperator(
  request: Request,
  pattern: string,
  deps?: SessionApiDeps,
): Promise<OperatorRouteAccessResult> {
  const page = pageOf(pattern);
  const access = routeAccess(page);
  if (access.role !== "operator") throw new Error(`${page} is not an operator's page in the page table`);
  return (await enforcePage(request, access, deps)) as OperatorRouteAccessResult;
}

async function enforcePage(
  request: Request,
  access: RouteAccess,
  deps?: SessionApiDeps,
): Promise<RouteAccessResult> {
  if (access.requiresAuthentication) {
    const user = await requireUser(request, deps);
    return { user: await enforceRole(request, access, user, deps), alreadyLoggedIn: false };
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
  /** Defaults to the cookie's own lifetime (SESSION_COOKIE_MAX_AGE: 5 h; 24 h for fltUserId). */
  maxAge?: number;
};

/** A Set-Cookie value for one session cookie: HttpOnly, SameSite=Lax, Path=/. */
export function sessionCookie(name: SessionCookieName, value: string, options: CookieOptions): string {
  const maxAge = options.maxAge ?? SESSION_COOKIE_MAX_AGE[name];
  return setCookieHeader(name, value, { maxAge, httpOnly: true, secure: options.secure });
}

/** Set-Cookie values that clear every session cookie (Max-Age=0). */
export function clearSessionCookies(options: Pick<CookieOptions, "secure">): string[] {
  return COOKIE_NAMES.map((name) => sessionCookie(name, "", { secure: options.secure, maxAge: 0 }));
}

/** The two logins of a session: the main API's and the care API's. */
export type SessionLogins = {
  main: { accessToken: string; userId: string };
  care: { accessToken: string; userId: string };
};

/**
 * Set-Cookie values that start a fresh session after both logins: `isLoggedIn`, `accessToken`,
 * `userID`, `fltAccessToken`, `fltUserId` with their lifetimes (5 h; 24 h for fltUserId), and every
 * other session cookie (a previous visitor's subscription flags…) cleared.
 */
export function loginCookies(logins: SessionLogins, options: Pick<CookieOptions, "secure">): string[] {
  const values: SessionValues = {
    isLoggedIn: "true",
    accessToken: logins.main.accessToken,
    userID: logins.main.userId,
    fltAccessToken: logins.care.accessToken,
    fltUserId: logins.care.userId,
  };
  return COOKIE_NAMES.map((name) => {
    const value = values[name];
    return value === undefined
      ? sessionCookie(name, "", { secure: options.secure, maxAge: 0 })
      : sessionCookie(name, value, { secure: options.secure });
  });
}

export function headersWithCookies(cookies: readonly string[], init?: HeadersInit): Headers {
  const headers = new Headers(init);
  for (const cookie of cookies) headers.append("Set-Cookie", cookie);
  return headers;
}

/**
 * Logs out: clears every session cookie and sends the visitor to /login (the required 10 ms
 * LOGOUT_REDIRECT_DELAY_MS is met by the immediate server redirect).
 *
 * `revokeTokens` (accounts.server.ts `revokeSession`) revokes the tokens with the APIs first; it
 * receives the user of the ending session, and its failure never keeps the visitor logged in.
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
