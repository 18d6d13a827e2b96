/**
 * Session values kept in cookies by the web server.
 * Tokens are HttpOnly: browser JavaScript never reads them (docs/decisions/002-web-as-bff-session.md).
 */
export const SESSION_COOKIES = Object.freeze({
  isLoggedIn: "isLoggedIn",
  accessToken: "accessToken",
  userID: "userID",
  fltAccessToken: "fltAccessToken",
  fltUserId: "fltUserId",
  availabilityToday: "availabilityToday",
  isSubscribed: "isSubscribed",
  subscriptionId: "subscriptionId",
  subscriptionEnded: "subscriptionEnded",
  subscriptionCanceled: "subscriptionCanceled",
  subscriptionTrialing: "subscriptionTrialing",
  subscriptionStatusChecked: "subscriptionStatusChecked",
} as const);

export type SessionCookieName = (typeof SESSION_COOKIES)[keyof typeof SESSION_COOKIES];

/** Cookies holding a bearer token: always HttpOnly. */
export const TOKEN_COOKIES: readonly SessionCookieName[] = Object.freeze([
  SESSION_COOKIES.accessToken,
  SESSION_COOKIES.fltAccessToken,
]);

/** Session cookies last 18000 s (5 h). */
export const SESSION_COOKIE_MAX_AGE_S = 18_000;
/** The secondary (care API) user id cookie lasts 86400 s (24 h). */
export const FLT_USER_ID_COOKIE_MAX_AGE_S = 86_400;
/** availabilityToday lasts 3600 s (1 h). */
export const AVAILABILITY_TODAY_COOKIE_MAX_AGE_S = 3_600;

/** Lifetime of each session cookie in seconds. */
export const SESSION_COOKIE_MAX_AGE: Readonly<Record<SessionCookieName, number>> = Object.freeze({
  isLoggedIn: SESSION_COOKIE_MAX_AGE_S,
  accessToken: SESSION_COOKIE_MAX_AGE_S,
  userID: SESSION_COOKIE_MAX_AGE_S,
  fltAccessToken: SESSION_COOKIE_MAX_AGE_S,
  fltUserId: FLT_USER_ID_COOKIE_MAX_AGE_S,
  availabilityToday: AVAILABILITY_TODAY_COOKIE_MAX_AGE_S,
  isSubscribed: SESSION_COOKIE_MAX_AGE_S,
  subscriptionId: SESSION_COOKIE_MAX_AGE_S,
  subscriptionEnded: SESSION_COOKIE_MAX_AGE_S,
  subscriptionCanceled: SESSION_COOKIE_MAX_AGE_S,
  subscriptionTrialing: SESSION_COOKIE_MAX_AGE_S,
  subscriptionStatusChecked: SESSION_COOKIE_MAX_AGE_S,
});

/** Access tokens issued by both APIs expire with the session: 5 h. */
export const ACCESS_TOKEN_TTL_S = SESSION_COOKIE_MAX_AGE_S;

/** "Fully logged in" needs both the login flag and the secondary access token (never one alone). */
export function isFullyLoggedIn(values: {
  isLoggedIn?: string | boolean | null;
  fltAccessToken?: string | null;
}): boolean {
  const flag = values.isLoggedIn === true || values.isLoggedIn === "true";
  return flag && typeof values.fltAccessToken === "string" && values.fltAccessToken.length > 0;
}
