import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { type APIRequestContext, type BrowserContext, request } from "playwright-core";
import { type Account, latestMail, linkIn, newAccount, PROFILE } from "./account-steps.ts";

/**
 * Patients and their sessions for journeys about something else than signing up or logging in
 * (docs/decisions/050-journey-fixtures.md). The account is made through the public calls the site
 * itself makes: the main API's captcha challenge and register call, the e-mailed link read from the
 * stack's mail files, and the web's own confirmation and login forms, posted by the browser
 * context's request client, so the web sets its own HttpOnly session cookies in the context. No
 * route exists for tests; the forms themselves are driven through the UI by the accounts journey.
 * Free of the test runner (node:assert checks), like account-steps.ts.
 */

export type Stack = { baseUrl: string; apiUrl: string; dataDir: string };

/** Something that can post to the web: a browser context (its cookies) or a standalone request client. */
type Poster = BrowserContext | APIRequestContext;
const requestOf = (poster: Poster): APIRequestContext => ("request" in poster ? poster.request : poster);

type AltchaChallenge = {
  algorithm: "SHA-256";
  challenge: string;
  maxnumber: number;
  salt: string;
  signature: string;
};

/**
 * Solves the site captcha's proof of work as the browser's worker does (ALTCHA: the number whose
 * SHA-256 with the salt is the challenge) and answers the payload a form sends.
 */
export async function solvedCaptcha(apiUrl: string): Promise<string> {
  const response = await fetch(`${apiUrl}/api/v1/api/captcha/challenge`);
  assert.equal(response.status, 200, "GET /api/captcha/challenge");
  const answer = (await response.json()) as { data: { provider: string; challenge?: AltchaChallenge } };
  assert.equal(answer.data.provider, "altcha", "the journeys' stack uses the built-in captcha");
  const { algorithm, challenge, maxnumber, salt, signature } = answer.data.challenge!;
  for (let number = 0; number <= maxnumber; number++) {
    if (createHash("sha256").update(`${salt}${number}`).digest("hex") === challenge) {
      const payload = { algorithm, challenge, number, salt, signature };
      return Buffer.from(JSON.stringify(payload)).toString("base64");
    }
  }
  throw new Error("the captcha's challenge has no solution up to its maxnumber");
}

/** Posts a form to the web as a browser without JavaScript would; the redirect is not followed. */
async function postForm(poster: Poster, url: string, form: Record<string, string>) {
  return requestOf(poster).post(url, { form, maxRedirects: 0 });
}

/** Where a form's answer redirects to (path + query), failing on anything but a redirect. */
async function redirectOf(response: Awaited<ReturnType<typeof postForm>>, what: string): Promise<string> {
  const location = response.headers().location;
  assert.ok(
    response.status() >= 300 && response.status() < 400 && location,
    `${what}: expected a redirect, got ${response.status()} ${(await response.text()).slice(0, 300)}`,
  );
  const url = new URL(location, "http://journey.invalid");
  return `${url.pathname}${url.search}`;
}

/**
 * A new patient, signed up and confirmed as the sign-up form and its e-mail would (the profile not
 * completed yet), and logged in in `poster`: the web's confirmation step sets the session cookies
 * in the browser context (or request client) given. Answers the account.
 */
export async function signUpPatient(
  poster: Poster,
  stack: Stack,
  overrides: Partial<Account> = {},
): Promise<Account> {
  const account = newAccount(overrides);
  const since = Date.now();
  const registered = await fetch(`${stack.apiUrl}/api/v1/api/auth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      email: account.email,
      password: account.password,
      first_name: account.firstName,
      last_name: account.lastName,
      locale: "en",
      captcha: await solvedCaptcha(stack.apiUrl),
    }),
  });
  assert.equal(registered.status, 202, `POST /api/auth/register: ${await registered.text()}`);
  const mail = await latestMail(stack.dataDir, {
    template: "sign-up-confirmation",
    to: account.email,
    since,
  });
  const link = linkIn(mail, "/sign-up/confirm");
  const token = new URL(link, stack.baseUrl).searchParams.get("token") ?? "";
  const confirmed = await postForm(poster, `${stack.baseUrl}${link}`, { token });
  assert.equal(await redirectOf(confirmed, "POST /sign-up/confirm"), "/almost-there");
  return account;
}

/** A confirmed patient account with no session anywhere (for a journey that logs in itself). */
export async function createPatient(stack: Stack, overrides: Partial<Account> = {}): Promise<Account> {
  const client = await request.newContext();
  try {
    return await signUpPatient(client, stack, overrides);
  } finally {
    await client.dispose();
  }
}

/**
 * Logs `credentials` in through the web's login form, posted by `poster` (the cookies are the
 * web's own); answers where the login continues, e.g. "/almost-there", "/" or "/login/second-factor".
 */
export async function logInSession(
  poster: Poster,
  baseUrl: string,
  credentials: Pick<Account, "email" | "password">,
  redirectTo?: string,
): Promise<string> {
  const response = await postForm(poster, `${baseUrl}/login`, {
    email: credentials.email,
    password: credentials.password,
    ...(redirectTo ? { redirectTo } : {}),
  });
  return redirectOf(response, "POST /login");
}

/** The second login step through the web's form with `code`; answers where the login continues. */
export async function secondFactorSession(poster: Poster, baseUrl: string, code: string): Promise<string> {
  const response = await postForm(poster, `${baseUrl}/login/second-factor`, { code });
  return redirectOf(response, "POST /login/second-factor");
}

/** Completes the profile of the logged-in patient of `poster` through /almost-there's form, as `PROFILE` (account-steps.ts) fills it. */
export async function completeProfileSession(
  poster: Poster,
  baseUrl: string,
  account: Account,
): Promise<void> {
  const response = await postForm(poster, `${baseUrl}/almost-there`, {
    first_name: account.firstName,
    last_name: account.lastName,
    date_of_birth: PROFILE.dateOfBirth,
    phone: PROFILE.phone,
    address_line1: PROFILE.addressLine1,
    city: PROFILE.city,
    state: "WA",
    zip: PROFILE.zip,
    gender: "female",
  });
  assert.equal(await redirectOf(response, "POST /almost-there"), "/my-profile");
}

/**
 * Starts the monthly trial of the logged-in patient of `context` (or of a request client) with the success card, through
 * the web's membership and demo checkout forms posted without the page (as a browser without
 * JavaScript posts them; the membership journey drives these pages), ending as the page does on
 * /thank-you-for-subscribing.
 */
export async function startTrialSession(context: Poster, baseUrl: string): Promise<void> {
  const started = await postForm(context, `${baseUrl}/membership-trial`, {
    intent: "subscribe",
    interval: "month",
  });
  const checkout = await redirectOf(started, "POST /membership-trial");
  assert.match(checkout, /^\/checkout\/[^/]+$/);
  const paid = await postForm(context, `${baseUrl}${checkout}`, {
    card_number: "4242 4242 4242 4242",
    expiry: "12/34",
    cvc: "123",
    name: "Jane Tester",
  });
  const thanks = await redirectOf(paid, `POST ${checkout}`);
  assert.equal(new URL(thanks, baseUrl).pathname, "/thank-you-for-subscribing");
  const page = await requestOf(context).get(`${baseUrl}${thanks}`);
  assert.equal(page.status(), 200, `GET ${thanks}`);
}
