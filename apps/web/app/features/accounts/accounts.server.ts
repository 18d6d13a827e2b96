import {
  AUTH_ERRORS,
  type LoginRequest,
  loginResponse,
  type ProfileFields,
  type RegisterRequest,
  TOO_MANY_LOGIN_ATTEMPTS,
  type User,
  userSchema,
} from "@ambercare/contracts/auth";
import { z } from "zod";
import {
  careAuthPath,
  careLoginApi,
  careProductPath,
  careService,
  mainApi,
  publicMainApi,
  userApis,
  visitorHeaders,
} from "#app/lib/api.server.ts";
import { type ApiError, isApiError } from "#app/lib/api-client.server.ts";
import {
  type FieldErrors,
  type FormField,
  type FormMessage,
  fieldMessage,
  formError,
} from "#app/lib/forms.ts";
import type { Locale } from "#app/lib/i18n.tsx";
import type { SessionLogins, SessionUser } from "#app/lib/session.server.ts";

/**
 * The account calls of both APIs (ADR 010), for the routes' actions. Each throws `ApiError` when the
 * API refuses; `apiFormMessage()` turns that into a message in the visitor's language.
 */

type VisitorContext = { clientIp?: string } | undefined;

const loginAnswer = z.object(loginResponse.shape);
const userAnswer = z.object({ data: z.object(userSchema.shape) });

function toLogin(body: unknown): { accessToken: string; userId: string } {
  const answer = loginAnswer.parse(body);
  return { accessToken: answer.access_token, userId: answer.user_id };
}

/** The care API login (the shared public bearer), the second half of every login. */
async function careLogin(credentials: LoginRequest, context: VisitorContext) {
  return toLogin(
    await careLoginApi().post("/auth/login", { body: credentials, headers: visitorHeaders(context) }),
  );
}

/** Logs in on both APIs: the main API's token and id, then the care API's. */
export async function logIn(credentials: LoginRequest, context: VisitorContext): Promise<SessionLogins> {
  const main = toLogin(
    await mainApi().post("/api/auth/login", { body: credentials, headers: visitorHeaders(context) }),
  );
  try {
    return { main, care: await careLogin(credentials, context) };
  } catch (error) {
    await revokeToken(main.accessToken);
    throw error;
  }
}

export type SignUpResult = { status: "ok"; logins: SessionLogins } | { status: "login-failed" };

/**
 * Creates the account on the main API (its answer is the main login) and logs in on the care API.
 * `login-failed`: the account exists but the care login did not work; the visitor should log in.
 */
export async function signUp(
  input: RegisterRequest,
  locale: Locale,
  context: VisitorContext,
  captcha?: string,
): Promise<SignUpResult> {
  const main = toLogin(
    await mainApi().post("/api/auth/register", {
      body: { ...input, locale, ...(captcha ? { captcha } : {}) },
      headers: visitorHeaders(context),
    }),
  );
  try {
    const credentials = { email: input.email, password: input.password };
    return { status: "ok", logins: { main, care: await careLogin(credentials, context) } };
  } catch (error) {
    if (!isApiError(error)) throw error;
    await revokeToken(main.accessToken);
    return { status: "login-failed" };
  }
}

/** `POST /api/auth/logout` with `token`; a failure is ignored (the token expires anyway). */
async function revokeToken(token: string): Promise<void> {
  try {
    // An empty JSON object: the API refuses a bodiless POST here.
    await mainApi(token).post("/api/auth/logout", { body: {} });
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
  await publicMainApi().post("/api/auth/forgot-password", {
    body: { email, ...(captcha ? { captcha } : {}) },
    headers: visitorHeaders(context),
  });
}

export type ResetPasswordResult = "ok" | "invalid-link" | "service-unavailable";

/** Sets a new password with the e-mailed token (care API, service credential). */
export async function resetPassword(token: string, password: string): Promise<ResetPasswordResult> {
  try {
    const result = await careService.call((care) =>
      care.post(careAuthPath("/reset-password"), { body: { token, password } }),
    );
    return result === null ? "service-unavailable" : "ok";
  } catch (error) {
    // A refused password (too common…) is the visitor's to fix; any other 400 is about the link.
    if (isApiError(error) && isPasswordRuleError(error)) throw error;
    if (
      isApiError(error) &&
      (error.message === AUTH_ERRORS.resetLinkInvalid || [400, 404, 410].includes(error.status))
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
  const answer = await userApis(request, user).care.post(careProductPath("/complete-profile"), { body });
  return userAnswer.parse(answer).data;
}

/** Updates the profile (update-user succeeds only with 200; anything else is an error). */
export async function updateProfile(
  request: Request,
  user: SessionUser & { account?: User },
  profile: ProfileInput,
): Promise<User> {
  const body = { user_id: careUserId(user), ...profile, address_line2: profile.address_line2 ?? "" };
  const answer = await userApis(request, user).care.post(careProductPath("/update-user"), { body });
  return userAnswer.parse(answer).data;
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
  await userApis(request, user).care.post(careAuthPath("/change-password"), {
    body: { user_id: careUserId(user), old_password: passwords.current, new_password: passwords.next },
    headers: visitorHeaders(context),
  });
}

/** Minutes to wait from a 429: its Retry-After (seconds or an HTTP date), else its text; at least 1. */
export function retryAfterMinutes(error: ApiError, now: number = Date.now()): number {
  const header = error.headers.get("Retry-After");
  let seconds: number | undefined;
  if (header) {
    const asNumber = Number(header);
    if (Number.isFinite(asNumber)) seconds = asNumber;
    else {
      const at = Date.parse(header);
      if (!Number.isNaN(at)) seconds = (at - now) / 1000;
    }
  }
  if (seconds === undefined) {
    const fromText = TOO_MANY_LOGIN_ATTEMPTS.exec(error.message)?.[1];
    seconds = fromText ? Number(fromText) * 60 : 60;
  }
  return Math.max(1, Math.ceil(seconds / 60));
}

/** Which password field a form has: sign-up and login say `password`, the others `new_password`. */
export type PasswordFieldName = "password" | "new_password";

/** An API failure as the form shows it: next to a field, or about the whole form. */
export type AccountFailure = { field?: FormField; message: FormMessage; status: number };

/**
 * Maps a refused account call to a translated message. The API's `{ error }` texts are fixed in
 * AUTH_ERRORS (packages/contracts/src/auth.ts) and matched exactly; the status decides the rest:
 * unreachable or 5xx → "service unavailable, try again" (503); 429 → "too many attempts, try again in
 * N minutes"; 401 on a login → wrong credentials. Only an unknown 4xx shows the API's own (English)
 * text, as a last resort.
 */
export function describeAccountError(
  error: ApiError,
  options: { passwordField?: PasswordFieldName } = {},
): AccountFailure {
  const passwordField = options.passwordField ?? "password";
  const status = error.status === 0 || error.status >= 500 ? 503 : error.status;
  if (status === 503) return { message: { key: "auth.errors.serviceUnavailable" }, status };
  if (status === 429) {
    return { message: { key: "auth.errors.throttled", values: { count: retryAfterMinutes(error) } }, status };
  }
  const field = (name: FormField, kind: string): AccountFailure => ({
    field: name,
    message: fieldMessage(name, kind),
    status,
  });
  switch (error.message) {
    case AUTH_ERRORS.incorrectCredentials:
      return { message: { key: "auth.errors.wrongCredentials" }, status };
    case AUTH_ERRORS.emailTaken:
      return field("email", "taken");
    case AUTH_ERRORS.wrongCurrentPassword:
      return field("current_password", "incorrect");
    case AUTH_ERRORS.passwordTooCommon:
      return field(passwordField, "common");
    case AUTH_ERRORS.passwordIsEmail:
      return field(passwordField, "isEmail");
    case AUTH_ERRORS.passwordHasProductName:
      return field(passwordField, "hasProductName");
    case AUTH_ERRORS.dateOfBirthInFuture:
      return field("date_of_birth", "future");
    case AUTH_ERRORS.serviceTokenRequired:
      return { message: { key: "auth.errors.serviceUnavailable" }, status: 503 };
    case AUTH_ERRORS.ownAccountOnly:
      return { message: { key: "auth.errors.unexpected" }, status };
  }
  if (status === 409) return field("email", "taken");
  if (status === 401) return { message: { key: "auth.errors.wrongCredentials" }, status };
  return { message: error.message ? { text: error.message } : { key: "auth.errors.unexpected" }, status };
}

/** Whether the API refused the new password itself (too common, the e-mail, the product name). */
export function isPasswordRuleError(error: ApiError): boolean {
  return (
    error.message === AUTH_ERRORS.passwordTooCommon ||
    error.message === AUTH_ERRORS.passwordIsEmail ||
    error.message === AUTH_ERRORS.passwordHasProductName
  );
}

/** The body of a failed submission from an API failure: the message next to its field, or on the form. */
export function failureResult<F extends string>(values: Record<F, string>, failure: AccountFailure) {
  return failure.field && Object.hasOwn(values, failure.field)
    ? formError(values, { [failure.field]: failure.message } as FieldErrors<F>)
    : formError(values, {}, failure.message);
}
