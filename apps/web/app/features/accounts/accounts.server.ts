import type { LoginRequest, ProfileFields, RegisterRequest, User } from "@ambercare/contracts/auth";
import type { LoginStepResponse } from "@ambercare/contracts/second-factor";
import {
  anonymousApi,
  publicApi,
  serviceApi,
  tokenMainApi,
  userApi,
  visitorHeaders,
} from "#app/lib/api.server.ts";
import { type ApiError, isApiError } from "#app/lib/api-client.server.ts";
import type { ApiFailure } from "#app/lib/api-errors.ts";
import { type FieldErrors, formError } from "#app/lib/forms.ts";
import type { Locale } from "#app/lib/i18n.tsx";
import type { SessionLogins, SessionUser } from "#app/lib/session.server.ts";

/**
 * The account calls of both APIs, for the routes' actions. Each throws `ApiError` when the
 * API refuses; `describeApiError()` (lib/api-errors.ts) turns that into a message in the visitor's language.
 */

type VisitorContext = { clientIp?: string } | undefined;

/**
 * A login answer as a session half. A care login that asks for a second factor the main login did
 * not ask for (switched on between the two calls) is a failure like any other.
 */
function toLogin(answer: LoginStepResponse): { accessToken: string; userId: string } {
  if (!("access_token" in answer)) throw new Error("the care login asked for a second factor");
  return { accessToken: answer.access_token, userId: answer.user_id };
}

/** The care API login (the shared public bearer), the second half of every login. */
async function careLogin(credentials: LoginRequest, context: VisitorContext) {
  return toLogin(
    await publicApi().accounts.careLogin({ body: credentials }, { headers: visitorHeaders(context) }),
  );
}

/**
 * The care API's half of a login that the main API has just accepted: traded for the main token, so
 * the password is checked once per login. When the API refuses the trade (another login of the
 * same account came in between), the ordinary care login with the password still works.
 */
async function careLoginAfter(
  main: { accessToken: string },
  credentials: LoginRequest,
  context: VisitorContext,
) {
  try {
    return toLogin(
      await publicApi().accounts.careLoginCompanion(
        { body: { main_access_token: main.accessToken } },
        { headers: visitorHeaders(context) },
      ),
    );
  } catch (error) {
    if (isApiError(error) && error.code === "COMPANION_LOGIN_REFUSED") return careLogin(credentials, context);
    throw error;
  }
}

export type LogInResult =
  | { status: "ok"; logins: SessionLogins }
  /** The account has a second factor: no session yet, the code step comes next (ADR 024). */
  | { status: "second-factor"; pendingLoginToken: string; expiresIn: number };

/**
 * Logs in on both APIs: the main API's token and id, then the care API's. An account with a second
 * factor gets a pending login from the main API instead; the care API is asked nothing yet.
 */
export async function logIn(credentials: LoginRequest, context: VisitorContext): Promise<LogInResult> {
  const answer = await anonymousApi().accounts.login(
    { body: credentials },
    { headers: visitorHeaders(context) },
  );
  if ("second_factor_required" in answer) {
    return {
      status: "second-factor",
      pendingLoginToken: answer.pending_login_token,
      expiresIn: answer.expires_in,
    };
  }
  const main = toLogin(answer);
  try {
    return { status: "ok", logins: { main, care: await careLoginAfter(main, credentials, context) } };
  } catch (error) {
    await revokeToken(main.accessToken);
    throw error;
  }
}

/**
 * Signs up on the main API. It answers the same for a new address and one with an account (the
 * owner of the address learns which by e-mail), and starts no session: the e-mailed link does.
 */
export async function signUp(
  input: RegisterRequest,
  locale: Locale,
  context: VisitorContext,
  captcha?: string,
): Promise<void> {
  await anonymousApi().accounts.register(
    { body: { ...input, locale, ...(captcha ? { captcha } : {}) } },
    { headers: visitorHeaders(context) },
  );
}

export type ConfirmSignUpResult =
  | { status: "ok"; logins: SessionLogins }
  | { status: "invalid-link" }
  | { status: "service-unavailable" };

/** Spends the e-mailed sign-up token (care API, service credential): both logins of the new patient. */
export async function confirmSignUp(token: string): Promise<ConfirmSignUpResult> {
  try {
    const result = await serviceApi((api) => api.accounts.confirmEmail({ body: { token } }));
    if (result === null) return { status: "service-unavailable" };
    return { status: "ok", logins: { main: toLogin(result.data.main), care: toLogin(result.data.care) } };
  } catch (error) {
    if (isApiError(error) && (error.code === "SIGN_UP_LINK_INVALID" || error.status === 400)) {
      return { status: "invalid-link" };
    }
    throw error;
  }
}

/** `POST /api/auth/logout` with `token`; a failure is ignored (the token expires anyway). */
export async function revokeToken(token: string): Promise<void> {
  try {
    // An empty JSON object: the API refuses a bodiless POST here.
    await tokenMainApi(token).accounts.logout({ body: {} });
  } catch {
    // Already revoked, expired or the API is down: the visitor is logged out on our side regardless.
  }
}

/** Revokes both tokens of the ending session (logout). Never throws. */
export async function revokeSession(user: SessionUser): Promise<void> {
  const tokens = new Set([user.accessToken, user.careAccessToken].filter((t): t is string => Boolean(t)));
  await Promise.all([...tokens].map(revokeToken));
}

/** Asks for a reset link (always 200: the API never says whether the account exists). */
export async function requestPasswordReset(
  email: string,
  context: VisitorContext,
  captcha?: string,
): Promise<void> {
  await publicApi().accounts.forgotPassword(
    { body: { email, ...(captcha ? { captcha } : {}) } },
    { headers: visitorHeaders(context) },
  );
}

export type ResetPasswordResult = "ok" | "invalid-link" | "service-unavailable";

/** Sets a new password with the e-mailed token (care API, service credential). */
export async function resetPassword(token: string, password: string): Promise<ResetPasswordResult> {
  try {
    const result = await serviceApi((api) => api.accounts.resetPassword({ body: { token, password } }));
    return result === null ? "service-unavailable" : "ok";
  } catch (error) {
    // A refused password (too common…) is the visitor's to fix; any other 400 is about the link.
    if (isApiError(error) && isPasswordRuleError(error)) throw error;
    if (
      isApiError(error) &&
      (error.code === "RESET_LINK_INVALID" || [400, 404, 410].includes(error.status))
    ) {
      return "invalid-link";
    }
    throw error;
  }
}

/** The care API's user id of the session (the verified account id when the cookie is missing). */
function careUserId(user: SessionUser & { account?: User }): string {
  return user.careUserId ?? user.account?.id ?? user.userId ?? "";
}

type ProfileInput = Omit<ProfileFields, "address_line2"> & { address_line2?: string };

/** Completes the profile after sign-up; answers the updated account. */
export async function completeProfile(
  request: Request,
  user: SessionUser & { account?: User },
  profile: ProfileInput,
): Promise<User> {
  const { address_line2, ...rest } = profile;
  const body = { user_id: careUserId(user), ...rest, ...(address_line2 ? { address_line2 } : {}) };
  return (await userApi(request, user).accounts.completeProfile({ body })).data;
}

/**
 * Updates the profile (update-user succeeds only with 200; anything else is an error), and the time
 * zone when one is given.
 */
export async function updateProfile(
  request: Request,
  user: SessionUser & { account?: User },
  profile: ProfileInput & { time_zone?: string },
): Promise<User> {
  const body = { user_id: careUserId(user), ...profile, address_line2: profile.address_line2 ?? "" };
  return (await userApi(request, user).accounts.updateUser({ body })).data;
}

/**
 * Changes the password of the logged-in user (care API, the user's token). The API counts a wrong
 * current password as a failed login of the visitor (hence the forwarded address) and keeps the
 * session's tokens alive.
 */
export async function changePassword(
  request: Request,
  user: SessionUser & { account?: User },
  passwords: { current: string; next: string },
  context: VisitorContext,
): Promise<void> {
  await userApi(request, user).accounts.changePassword(
    { body: { user_id: careUserId(user), old_password: passwords.current, new_password: passwords.next } },
    { headers: visitorHeaders(context) },
  );
}

/** Which password field a form has: sign-up and login say `password`, the others `new_password`. */
export type PasswordFieldName = "password" | "new_password";

/** The password rules' codes: the API refused the new password itself. */
const PASSWORD_RULE_CODES: ReadonlySet<string> = new Set([
  "PASSWORD_TOO_COMMON",
  "PASSWORD_IS_EMAIL",
  "PASSWORD_HAS_PRODUCT_NAME",
]);

/** Whether the API refused the new password itself (too common, the e-mail, the product name). */
export function isPasswordRuleError(error: ApiError): boolean {
  return error.code !== undefined && PASSWORD_RULE_CODES.has(error.code);
}

/** The body of a failed submission from an API failure: the message next to its field, or on the form. */
export function failureResult<F extends string>(values: Record<F, string>, failure: ApiFailure) {
  return failure.field && Object.hasOwn(values, failure.field)
    ? formError(values, { [failure.field]: failure.message } as FieldErrors<F>)
    : formError(values, {}, failure.message);
}
