import { createHash, randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ConfirmEmailResponse, LoginResponse, RegisterRequest } from "@ambercare/contracts/auth";
import { type AltchaChallenge, captchaChallengeResponse } from "@ambercare/contracts/communications";
import type { ConsultationType } from "@ambercare/contracts/provider";
import { NO_VISIT_CREDITS, VISIT_TYPE_IDS, VISIT_TYPES } from "@ambercare/contracts/visit-types";
import type { DbHandle } from "@ambercare/db/client";
import { bookings, clinicians, consultations, providers, users } from "@ambercare/db/schema";
import { seedDemoData } from "@ambercare/db/seed";
import { createTestDb, type TestDb } from "@ambercare/db/testing";
import { eq, inArray, isNull, sql } from "drizzle-orm";
import { SMTPServer, type SMTPServerAddress } from "smtp-server";
import { type App, buildApp } from "#api/app.ts";
import { createPasswords } from "#api/modules/accounts/passwords.ts";
import { enableKnownSecondFactor } from "#api/modules/accounts/second-factor-service.ts";
import { ensureServiceAccount } from "#api/modules/accounts/service-account.ts";
import type { ConsultationEntitlements } from "#api/modules/membership/consultation-entitlements.ts";
import { TEST_ARGON2_PARAMS } from "#api/platform/argon2-params.ts";
import { type Clock, systemClock } from "#api/platform/clock.ts";
import { type ApiConfig, loadConfig, stripePriceVariable } from "#api/platform/config.ts";
import type { FetchLike } from "#api/platform/http-client.ts";

/** Test-only helpers (imported by *.test.ts files only). */

export const TEST_PUBLIC_API_TOKEN = "test-public-token-0123456789abcdef";
export const TEST_SERVICE_ACCOUNT = Object.freeze({
  email: "service@ambercare.test",
  password: "service-password-for-tests",
});

export const TEST_CAPTCHA_HMAC_KEY = "test-captcha-hmac-key-0123456789abcdef";

/**
 * The Stripe price ids a test running PAYMENTS=stripe sets: price_monthly, price_yearly and, per
 * one-time visit, price_<kind> (STRIPE_PRICE_PPV_CHAT: price_chat).
 */
export const TEST_STRIPE_PRICES: Readonly<Record<string, string>> = Object.freeze({
  STRIPE_PRICE_MONTHLY: "price_monthly",
  STRIPE_PRICE_YEARLY: "price_yearly",
  ...Object.fromEntries(
    VISIT_TYPES.map((visit) => [stripePriceVariable(visit.planKey), `price_${visit.id}`]),
  ),
});

/**
 * A complete config as the API would parse it, with every secret given so no secrets file is
 * written. createTestApp() gives each app a DATA_DIR of its own (for `.eml` files).
 */
export function testConfig(overrides: Record<string, string> = {}): ApiConfig {
  return loadConfig({
    NODE_ENV: "test",
    LOG_LEVEL: "silent",
    DATA_DIR: join(tmpdir(), "ambercare-api-test"),
    PUBLIC_API_TOKEN: TEST_PUBLIC_API_TOKEN,
    SERVICE_ACCOUNT_EMAIL: TEST_SERVICE_ACCOUNT.email,
    SERVICE_ACCOUNT_PASSWORD: TEST_SERVICE_ACCOUNT.password,
    CAPTCHA_HMAC_KEY: TEST_CAPTCHA_HMAC_KEY,
    LIST_TOKEN_SECRET: "test-list-token-secret-0123456789abcdef",
    SECOND_FACTOR_KEY: "test-second-factor-key-0123456789abcdef",
    // A VAPID pair made once for the tests (web push): generated, it would be written to DATA_DIR.
    VAPID_PUBLIC_KEY:
      "BFZK33htmMslhkK5V0g7VY0z-j65Xe71dDXD72RCzDON1VjPax8jcFUMoIl_W2b9XnSTvA23ODF3uAqGOGWzBzM",
    VAPID_PRIVATE_KEY: "e2tPK7qYiYlmRG4jS-oPVxrupRvB5Ob8CMyXkbQxWiA",
    // A small proof of work keeps each solve in tests to milliseconds; verification is unchanged.
    ALTCHA_MAX_NUMBER: "2000",
    // Cheap hashing, likewise (passwords.test.ts pins the production cost). An app configured as in
    // production hashes at the production cost, since production refuses the cheap one.
    ...(overrides.NODE_ENV === "production" ? {} : { ARGON2_PARAMS: TEST_ARGON2_PARAMS }),
    ...overrides,
  });
}

/** Collects the JSON log lines the app writes. */
export function createLogCapture() {
  const lines: string[] = [];
  return {
    stream: { write: (line: string) => void lines.push(line) },
    lines,
    entries: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>),
    text: () => lines.join(""),
  };
}

export type TestApp = {
  app: App;
  db: TestDb;
  /** This app's DATA_DIR (a fresh temporary directory unless `env.DATA_DIR` was given). */
  dataDir: string;
  close(): Promise<void>;
};

/**
 * A migrated (and by default seeded) test database with the app built on it, not yet ready. As
 * server.ts does at start, the service account is created.
 */
export async function createTestApp(
  options: {
    env?: Record<string, string>;
    seed?: boolean;
    clock?: Clock;
    logStream?: { write(line: string): void };
    db?: TestDb;
    /** Replace the handle the app sees (e.g. one whose ping fails). */
    wrapDb?: (db: DbHandle) => DbHandle;
    /** The app's client of third-party HTTP APIs (Stripe, reCAPTCHA, SendGrid). */
    fetch?: FetchLike;
    /** Membership and visit credits for consultations (createTestEntitlements()). */
    entitlements?: ConsultationEntitlements;
  } = {},
): Promise<TestApp> {
  const seed = options.seed ?? true;
  // A database of its own is copied from the seeded template; a given one is seeded here.
  const db = options.db ?? (await createTestDb({ seeded: seed }));
  if (options.db && seed) await seedDemoData(db);
  const ownDataDir = options.env?.DATA_DIR === undefined;
  const dataDir = options.env?.DATA_DIR ?? mkdtempSync(join(tmpdir(), "ambercare-api-test-"));
  const config = testConfig({ ...options.env, DATA_DIR: dataDir });
  await ensureServiceAccount(
    db.db,
    options.clock ?? systemClock,
    { email: config.SERVICE_ACCOUNT_EMAIL, password: config.SERVICE_ACCOUNT_PASSWORD },
    createPasswords(config.ARGON2_PARAMS),
  );
  const app = await buildApp(config, {
    db: options.wrapDb ? options.wrapDb(db) : db,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.logStream ? { logStream: options.logStream } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.entitlements ? { entitlements: options.entitlements } : {}),
  });
  return {
    app,
    db,
    dataDir: config.DATA_DIR,
    async close() {
      await app.close();
      if (!options.db) await db.cleanup();
      if (ownDataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export type GrantableEntitlements = ConsultationEntitlements & {
  grant(
    userId: string,
    grant: { member?: boolean; credits?: Partial<Record<ConsultationType, number>> },
  ): void;
  credits(userId: string): Record<ConsultationType, number>;
};

/**
 * Memberships and one-time visit credits granted by the test (`grant(userId, { member: true })`,
 * `grant(userId, { credits: { video: 1 } })`), held in memory, standing in for the membership
 * module so that the consultation rules can be tested on their own. JavaScript runs one callback at
 * a time, so check-and-decrement cannot interleave; it does not roll back with `tx`, which is why
 * the consultation service consumes a credit as the last step of its transaction.
 */
export function createTestEntitlements(): GrantableEntitlements {
  const members = new Set<string>();
  const balances = new Map<string, Record<ConsultationType, number>>();
  const balance = (userId: string) => {
    let entry = balances.get(userId);
    if (!entry) {
      entry = { ...NO_VISIT_CREDITS };
      balances.set(userId, entry);
    }
    return entry;
  };
  return {
    async isMember(userId) {
      return members.has(userId);
    },
    async consumeVisitCredit(_tx, userId, type) {
      const entry = balance(userId);
      if (entry[type] < 1) return false;
      entry[type] -= 1;
      return true;
    },
    async returnVisitCredit(_tx, userId, type) {
      balance(userId)[type] += 1;
    },
    // Credits granted by hand were never bought: there is no payment to give back.
    async refundVisit() {
      return { kind: "nothing_paid" };
    },
    async visitPayment() {
      return null;
    },
    grant(userId, grant) {
      if (grant.member === true) members.add(userId);
      if (grant.member === false) members.delete(userId);
      const entry = balance(userId);
      entry.chat += grant.credits?.chat ?? 0;
      entry.video += grant.credits?.video ?? 0;
    },
    credits(userId) {
      return { ...balance(userId) };
    },
  };
}

/** A message as a mail client shows it: decoded headers and the text and HTML parts. */
export type ParsedMail = { headers: Map<string, string>; text: string; html: string };

/**
 * Reads a raw RFC 5322 message (an `.eml` file, or what an SMTP server received) the way a mail
 * client would: unfolds and decodes headers (RFC 2047), splits multipart/alternative, and decodes
 * base64 and quoted-printable parts. Enough for the messages this API writes, not a general parser.
 */
export function parseMail(raw: string): ParsedMail {
  const { headers, body } = splitEntity(raw.replaceAll("\r\n", "\n"));
  return parseBody(headers, body);
}

function parseBody(headers: Map<string, string>, body: string): ParsedMail {
  const parts = new Map<string, string>();
  const boundary = /boundary="?([^";]+)"?/i.exec(headers.get("content-type") ?? "")?.[1];
  if (boundary) {
    for (const chunk of body.split(`--${boundary}`).slice(1)) {
      if (chunk.startsWith("--")) break;
      const part = splitEntity(chunk.replace(/^\n/, ""));
      const type = (part.headers.get("content-type") ?? "text/plain").split(";")[0]!.trim();
      parts.set(type, decodeBody(part.body, part.headers.get("content-transfer-encoding")));
    }
  } else {
    parts.set("text/plain", decodeBody(body, headers.get("content-transfer-encoding")));
  }
  return { headers, text: parts.get("text/plain") ?? "", html: parts.get("text/html") ?? "" };
}

function splitEntity(raw: string): { headers: Map<string, string>; body: string } {
  const end = raw.indexOf("\n\n");
  const head = end === -1 ? raw : raw.slice(0, end);
  const headers = new Map<string, string>();
  for (const line of head.replaceAll(/\n[ \t]+/g, " ").split("\n")) {
    const colon = line.indexOf(":");
    if (colon > 0) headers.set(line.slice(0, colon).toLowerCase(), decodeWords(line.slice(colon + 1).trim()));
  }
  return { headers, body: end === -1 ? "" : raw.slice(end + 2) };
}

function decodeWords(value: string): string {
  return value
    .replaceAll(/(\?=)\s+(=\?)/g, "$1$2")
    .replaceAll(/=\?[^?]+\?([BbQq])\?([^?]*)\?=/g, (_match, encoding: string, text: string) =>
      encoding.toUpperCase() === "B"
        ? Buffer.from(text, "base64").toString("utf8")
        : decodeQuotedPrintable(text.replaceAll("_", " ")),
    );
}

function decodeBody(body: string, encoding: string | undefined): string {
  switch ((encoding ?? "7bit").toLowerCase()) {
    case "base64":
      return Buffer.from(body.replaceAll(/\s+/g, ""), "base64").toString("utf8");
    case "quoted-printable":
      return decodeQuotedPrintable(body.replaceAll(/=\n/g, ""));
    default:
      return body;
  }
}

/** `=XX` escapes to their bytes, read as UTF-8 (an encoder escapes every byte that is not ASCII). */
function decodeQuotedPrintable(text: string): string {
  // A run of escapes is decoded at once: a character's UTF-8 bytes are escaped one after another.
  return text.replaceAll(/(?:=[0-9A-Fa-f]{2})+/g, (run) =>
    Buffer.from(run.replaceAll("=", ""), "hex").toString("utf8"),
  );
}

/**
 * The `.eml` files an app has written, oldest first, parsed; with `wanted`, only the messages whose
 * headers it accepts (their bodies are the costly part, and a run writes hundreds of messages).
 */
export function readMailFiles(
  dataDir: string,
  wanted: (headers: Map<string, string>) => boolean = () => true,
): Array<ParsedMail & { file: string }> {
  const directory = join(dataDir, "mail");
  if (!existsSync(directory)) return [];
  return readdirSync(directory)
    .filter((name) => name.endsWith(".eml"))
    .sort()
    .flatMap((name) => {
      const { headers, body } = splitEntity(
        readFileSync(join(directory, name), "utf8").replaceAll("\r\n", "\n"),
      );
      return wanted(headers) ? [{ file: name, ...parseBody(headers, body) }] : [];
    });
}

/** The messages written to `email`, oldest first (file names sort by time, then at random). */
export function mailFilesTo(dataDir: string, email: string): Array<ParsedMail & { file: string }> {
  return readMailFiles(dataDir, (headers) => headers.get("to") === email);
}

/** The reset token in a message's link (`…/reset-password?token=…`). */
export function resetTokenIn(mail: Pick<ParsedMail, "text">): string {
  const token = /\/reset-password\?token=([A-Za-z0-9_-]+)/.exec(mail.text)?.[1];
  if (!token) throw new Error("no reset link in the message");
  return token;
}

/** A valid registration body; `email` is unique per call unless given. */
export function newPatient(overrides: Partial<RegisterRequest> = {}): RegisterRequest {
  return {
    email: `patient-${randomUUID()}@example.org`,
    password: "quiet lantern harbour",
    first_name: "Jane",
    last_name: "Doe",
    ...overrides,
  };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** A fresh ALTCHA challenge from the API, as a browser fetches it. */
export async function fetchAltchaChallenge(app: App): Promise<AltchaChallenge> {
  const res = await app.inject({ method: "GET", url: "/api/v1/api/captcha/challenge" });
  const { data } = captchaChallengeResponse.parse(res.json());
  if (data.provider !== "altcha") throw new Error("the app is not configured for ALTCHA");
  return data.challenge;
}

/** The ALTCHA payload a browser would send for `challenge` (the proof of work, really solved). */
export async function solveAltcha(challenge: AltchaChallenge): Promise<string> {
  const number = solveProofOfWork(challenge);
  if (number === null) throw new Error("the ALTCHA challenge has no solution below maxnumber");
  const { algorithm, challenge: hash, salt, signature } = challenge;
  return Buffer.from(JSON.stringify({ algorithm, challenge: hash, number, salt, signature })).toString(
    "base64",
  );
}

/**
 * The search of altcha-lib's solveChallenge (the first n from 0 whose hash of salt + n is the
 * challenge), with Node's synchronous hashing: web crypto's digest, which altcha-lib awaits once per
 * try, costs a thread-pool round trip each time, and the suites solve one for every protected form.
 */
function solveProofOfWork(challenge: AltchaChallenge): number | null {
  const algorithm = challenge.algorithm.replace("-", "").toLowerCase();
  for (let n = 0; n <= challenge.maxnumber; n++) {
    if (
      createHash(algorithm)
        .update(challenge.salt + n)
        .digest("hex") === challenge.challenge
    )
      return n;
  }
  return null;
}

/** Fetches and solves a real captcha challenge: the `captcha` field of a protected form. */
export async function solveCaptcha(app: App): Promise<string> {
  return solveAltcha(await fetchAltchaChallenge(app));
}

/** `payload` plus a freshly solved captcha. */
export async function withCaptcha<T extends object>(app: App, payload: T): Promise<T & { captcha: string }> {
  return { ...payload, captcha: await solveCaptcha(app) };
}

/** The token in a message's sign-up link (`…/sign-up/confirm?token=…`). */
export function signUpTokenIn(mail: Pick<ParsedMail, "text">): string {
  const token = /\/sign-up\/confirm\?token=([A-Za-z0-9_-]+)/.exec(mail.text)?.[1];
  if (!token) throw new Error("no sign-up link in the message");
  return token;
}

/**
 * The token of the newest sign-up link sent to `email`: in the app's mail files, or, for an app
 * that sends over SMTP, in what the test SMTP servers of this process received.
 */
export async function signUpTokenFor(app: App, email: string): Promise<string> {
  await app.mailer.drain();
  const delivered =
    app.mailer.kind === "file"
      ? mailFilesTo(app.config.DATA_DIR, email)
      : smtpInboxes.flat().flatMap((message) => (message.to.includes(email) ? [parseMail(message.raw)] : []));
  const mail = delivered.findLast((m) => m.text.includes("/sign-up/confirm?"));
  if (!mail) throw new Error(`no sign-up e-mail to ${email}`);
  return signUpTokenIn(mail);
}

/** Follows a sign-up link as the web does (service token): the raw answer. */
export async function confirmSignUp(app: App, token: string) {
  return app.inject({
    method: "POST",
    url: `/auth/${app.config.PRODUCT_SLUG}/confirm-email`,
    headers: bearer(await serviceToken(app)),
    payload: { token },
  });
}

/**
 * Registers a patient on the main API and follows the link of the sign-up e-mail; returns the main
 * API's login (at top level, as a login answers), the care API's login, and what was sent.
 */
export async function registerPatient(app: App, overrides: Partial<RegisterRequest> = {}) {
  const body = newPatient(overrides);
  const res = await app.inject({
    method: "POST",
    url: "/api/v1/api/auth/register",
    payload: await withCaptcha(app, body),
  });
  if (res.statusCode !== 202) throw new Error(`register answered ${res.statusCode}: ${res.body}`);
  const confirmed = await confirmSignUp(app, await signUpTokenFor(app, body.email));
  if (confirmed.statusCode !== 200) {
    throw new Error(`confirm-email answered ${confirmed.statusCode}: ${confirmed.body}`);
  }
  const { main, care } = (confirmed.json() as ConfirmEmailResponse).data;
  return { ...main, care, email: body.email, password: body.password };
}

/**
 * The providers take every kind of visit: the seed gives each a random subset, and a provider
 * without chat (or video) never sees those requests in its queue.
 */
export async function offerEveryVisitType(db: TestApp["db"]["db"], ...providerIds: string[]): Promise<void> {
  await db
    .update(providers)
    .set({ visitTypes: [...VISIT_TYPE_IDS] })
    .where(inArray(providers.id, providerIds));
}

/**
 * A clinician account working as a provider no other account has: a registered account turned
 * clinician, with the second factor on (the console's calls require it) unless `secondFactor` is
 * false (a clinician who has yet to set it up).
 */
export async function registerClinician(t: TestApp, now: Date, { secondFactor = true } = {}) {
  const account = await registerPatient(t.app);
  const [free] = await t.db.db
    .select({ id: providers.id })
    .from(providers)
    .leftJoin(clinicians, eq(clinicians.providerId, providers.id))
    .where(isNull(clinicians.userId))
    .orderBy(sql`random()`)
    .limit(1);
  await t.db.db.update(users).set({ role: "clinician" }).where(eq(users.id, account.user_id));
  await t.db.db.insert(clinicians).values({ userId: account.user_id, providerId: free!.id });
  if (!secondFactor) return { ...account, providerId: free!.id };
  await enableKnownSecondFactor(t.db.db, {
    encryptionKey: t.app.config.SECOND_FACTOR_KEY!,
    userId: account.user_id,
    secret: "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP",
    now,
  });
  return { ...account, providerId: free!.id };
}

/**
 * A booked video visit of `patientUserId` with the clinician, written straight to the database (a
 * half-hour booking in CA from `startsAt`, status scheduled); answers the consultation's id.
 */
export async function insertBookedVisit(
  db: DbHandle["db"],
  visit: { patientUserId: string; clinicianUserId: string; providerId: string; startsAt: Date },
): Promise<string> {
  const [row] = await db
    .insert(consultations)
    .values({
      userId: visit.patientUserId,
      providerId: visit.providerId,
      type: "video",
      status: "scheduled",
      state: "CA",
      scheduledStart: visit.startsAt,
    })
    .returning({ id: consultations.id });
  await db.insert(bookings).values({
    consultationId: row!.id,
    patientUserId: visit.patientUserId,
    clinicianUserId: visit.clinicianUserId,
    providerId: visit.providerId,
    type: "video",
    state: "CA",
    startsAt: visit.startsAt,
    endsAt: new Date(visit.startsAt.getTime() + 30 * 60_000),
    status: "booked",
  });
  return row!.id;
}

/**
 * An operator account (ADR 065): a registered account turned operator, with the second factor on
 * unless `secondFactor` is false (an operator who has yet to set it up).
 */
export async function registerOperator(t: TestApp, now: Date, { secondFactor = true } = {}) {
  const account = await registerPatient(t.app);
  await t.db.db.update(users).set({ role: "operator" }).where(eq(users.id, account.user_id));
  if (!secondFactor) return account;
  await enableKnownSecondFactor(t.db.db, {
    encryptionKey: t.app.config.SECOND_FACTOR_KEY!,
    userId: account.user_id,
    secret: "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP",
    now,
  });
  return account;
}

/**
 * A create-consultation body of a patient in `state` with a cough (a new idempotency key each
 * time); `extra` adds or replaces fields (a provider, a hold), `intake` answers.
 */
export function consultationBody(
  type: ConsultationType,
  state: string,
  extra: Record<string, unknown> = {},
  intake: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    idempotency_key: randomUUID(),
    type,
    intake: {
      patient: "self",
      gender: "female",
      race: "White",
      ethnicity: "Not Hispanic or Latino",
      state,
      symptoms: ["Cough"],
      symptoms_started_on: "2026-01-02",
      recent_travel: false,
      ...intake,
    },
    consents: { informed_consent: true, audio_video_recording: true, financial_communications: true },
    ...extra,
  };
}

/** The service account's care token, as the web server gets it (for public care calls of a visitor). */
export async function serviceToken(app: App): Promise<string> {
  const res = await app.inject({
    method: "POST",
    url: "/auth/login",
    headers: bearer(TEST_PUBLIC_API_TOKEN),
    payload: TEST_SERVICE_ACCOUNT,
  });
  if (res.statusCode !== 200) throw new Error(`service login answered ${res.statusCode}: ${res.body}`);
  return (res.json() as LoginResponse).access_token;
}

type Received = { from: string; to: string[]; raw: string };

/** What every test SMTP server of this process received (for signUpTokenFor). */
const smtpInboxes: Received[][] = [];

/**
 * A real SMTP server on an ephemeral loopback port (no TLS, no auth: a test relay). Recipients
 * starting with "reject" are refused with a 550 that quotes the address, as real servers do.
 */
export async function startSmtpServer() {
  const received: Received[] = [];
  smtpInboxes.push(received);
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onRcptTo(address: SMTPServerAddress, _session, callback) {
      if (address.address.startsWith("reject")) {
        const error = Object.assign(new Error(`<${address.address}>: Recipient address rejected`), {
          responseCode: 550,
        });
        callback(error);
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw: Buffer.concat(chunks).toString("utf8"),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.server.address() as AddressInfo;
  return {
    received,
    url: `smtp://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
