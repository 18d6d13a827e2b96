import type {
  AccountDeleted,
  Consents,
  ConsentsRequest,
  ContactEntryRequest,
  ListStatus,
  MyDataExport,
  SupportMessage,
} from "@ambercare/contracts/communications";
import { CAPTCHA_FIELD } from "#app/features/communications/captcha.ts";
import {
  anonymousApi,
  ownTokenCareApi,
  publicApi,
  serviceApi,
  userApi,
  visitorHeaders,
} from "#app/lib/api.server.ts";
import { type ApiError, isApiError } from "#app/lib/api-client.server.ts";
import { type ApiFailure, describeApiError } from "#app/lib/api-errors.ts";
import type { Locale } from "#app/lib/i18n.tsx";
import type { SessionUser, VerifiedUser } from "#app/lib/session.server.ts";

/**
 * The communication calls for the routes' actions and loaders (docs/decisions/017):
 * captcha challenge, contact entries and support messages, the e-mail list with double opt-in,
 * and the Washington My Health My Data rights. Each throws `ApiError` when the API refuses;
 * `describeApiError()` (lib/api-errors.ts) turns that into a message in the visitor's language.
 */

type VisitorContext = { clientIp?: string } | undefined;

/** The `captcha` value the form's hidden field carried ("" when JavaScript did not run). */
export function captchaOf(formData: FormData): string | undefined {
  const value = formData.get(CAPTCHA_FIELD);
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** A challenge for the browser: the API's answer, checked against the contract. */
export async function captchaChallenge(): Promise<unknown> {
  return anonymousApi().communications.captchaChallenge();
}

/**
 * Saves a contact entry (the /contact-us form or the support widget). A logged-in patient sends it
 * with their own token (the entry is theirs and appears in /my-profile/messages); anyone else with
 * the care API's service token. `null`: the service login failed.
 */
export async function saveContactEntry(
  request: Request,
  user: SessionUser | VerifiedUser | null,
  entry: ContactEntryRequest,
  context: VisitorContext,
): Promise<{ id: string } | null> {
  const options = { headers: visitorHeaders(context) };
  if (user) {
    const userId = user.careUserId ?? ("account" in user ? user.account.id : null) ?? user.userId;
    const body = userId ? { ...entry, user_id: userId } : entry;
    return (await userApi(request, user).communications.saveContactEntry({ body }, options)).data;
  }
  const answer = await serviceApi((api) => api.communications.saveContactEntry({ body: entry }, options));
  return answer === null ? null : answer.data;
}

/** The patient's own contact entries and widget messages, newest first. */
export async function supportMessages(request: Request, user: VerifiedUser): Promise<SupportMessage[]> {
  return (await userApi(request, user).communications.supportMessages()).data;
}

/** Adds an address to the newsletter: the API e-mails a confirmation link (double opt-in). */
export async function addToContacts(
  input: { email: string; captcha: string | undefined; locale: Locale },
  context: VisitorContext,
): Promise<void> {
  await publicApi().communications.addToContacts(
    {
      body: {
        email: input.email,
        locale: input.locale,
        ...(input.captcha ? { captcha: input.captcha } : {}),
      },
    },
    { headers: visitorHeaders(context) },
  );
}

/** Confirms a subscription with the token of the confirmation e-mail. */
export async function confirmSubscription(token: string): Promise<ListStatus> {
  return (await publicApi().communications.confirmSubscription({ body: { token } })).data;
}

/** Unsubscribes (or resubscribes) the address of an unsubscribe link (the shared public bearer). */
export async function changeSubscription(
  change: "unsubscribe" | "resubscribe",
  input: { email: string; token: string },
): Promise<ListStatus> {
  return (await publicApi().communications[change]({ body: input })).data;
}

/** Everything the API holds about the patient (Washington My Health My Data). */
export async function exportMyData(request: Request, user: VerifiedUser): Promise<MyDataExport> {
  return (await userApi(request, user).myData.export()).data;
}

export async function getConsents(request: Request, user: VerifiedUser): Promise<Consents> {
  return (await userApi(request, user).myData.getConsents()).data;
}

export async function setConsents(
  request: Request,
  user: VerifiedUser,
  body: ConsentsRequest,
): Promise<Consents> {
  return (await userApi(request, user).myData.setConsents({ body })).data;
}

/**
 * Closes the account and erases its health data. The password is checked again by the API. Called
 * without the logout seam: a wrong password must come back to the form, whatever its status; the
 * caller decides what a 401 means.
 */
export async function deleteMyData(
  user: VerifiedUser,
  password: string,
  context: VisitorContext,
): Promise<AccountDeleted> {
  const options = { headers: visitorHeaders(context) };
  return (await ownTokenCareApi(user.careAccessToken).myData.delete({ body: { password } }, options)).data;
}

/** The captcha's own failures (missing, forged, replayed, expired), for forms that map other errors themselves. */
export function captchaFailure(error: ApiError): ApiFailure | null {
  const failure = describeApiError(error);
  return failure.field === "captcha" ? failure : null;
}

export { isApiError };
