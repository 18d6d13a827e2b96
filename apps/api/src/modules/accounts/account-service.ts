import {
  AUTH_ERRORS,
  type ChangePasswordRequest,
  COMPANION_LOGIN_WINDOW_S,
  type CompleteProfileRequest,
  type ConfirmEmailResponse,
  isProfileComplete,
  type LoginRequest,
  type LoginResponse,
  type RegisterRequest,
  type ResetPasswordRequest,
  type UpdateUserRequest,
  type User,
} from "@ambercare/contracts/auth";
import type { ErrorCode } from "@ambercare/contracts/error-codes";
import type { Locale } from "@ambercare/contracts/locales";
import type { LoginStepResponse } from "@ambercare/contracts/second-factor";
import type { Database } from "@ambercare/db/client";
import type { MailTokenPurpose } from "@ambercare/db/schema";
import type { FastifyBaseLogger } from "fastify";
import { createLoginThrottle, type LoginThrottleLimits } from "#api/modules/accounts/login-throttle.ts";
import {
  PASSWORD_PROBLEM_CODES,
  type Passwords,
  passwordProblem,
  verifyPassword,
} from "#api/modules/accounts/passwords.ts";
import { createSecondFactorService } from "#api/modules/accounts/second-factor-service.ts";
import { type AuthContext, createSessionService } from "#api/modules/accounts/session-service.ts";
import type { Surface } from "#api/modules/accounts/token-repository.ts";
import { createTokenRepository } from "#api/modules/accounts/token-repository.ts";
import { generateToken, hashToken } from "#api/modules/accounts/tokens.ts";
import {
  createUserRepository,
  type ProfileChanges,
  type UserRow,
} from "#api/modules/accounts/user-repository.ts";
import { createAttemptCounterRepository } from "#api/platform/attempt-counter-repository.ts";
import { patientDayIn } from "#api/platform/clinic-day.ts";
import type { Clock } from "#api/platform/clock.ts";
import { AppError } from "#api/platform/errors.ts";
import type { Mailer } from "#api/platform/mail/mailer.ts";
import { type MailTemplate, renderMail } from "#api/platform/mail/templates.ts";

/** A reset link works for one hour. */
export const RESET_TOKEN_TTL_MS = 60 * 60_000;
/** At most this many reset e-mails per account per hour, so nobody can flood a patient's inbox. */
export const RESET_MAILS_PER_HOUR = 5;
/** A sign-up link works for 24 hours: long enough to find the e-mail the next day. */
export const SIGN_UP_LINK_TTL_MS = 24 * 60 * 60_000;
/** At most this many sign-up e-mails (links or "someone tried") per address per hour. */
export const SIGN_UP_MAILS_PER_HOUR = 5;
const HOUR_MS = 60 * 60_000;

export type AccountSettings = {
  productName: string;
  productSlug: string;
  /** Normalised (lower-case) SERVICE_ACCOUNT_EMAIL. */
  serviceAccountEmail: string;
  /** Origin of the site, for links in e-mails: PUBLIC_URL, or http://localhost:$PORT. */
  siteUrl: string;
  /** SECOND_FACTOR_KEY: the key TOTP secrets are encrypted under. */
  secondFactorKey: string;
};

export type AccountServiceDeps = {
  db: Database;
  clock: Clock;
  mailer: Mailer;
  log: FastifyBaseLogger;
  /** ARGON2_PARAMS' hashing. */
  passwords: Passwords;
  settings: AccountSettings;
  keyHash: (purpose: string, value: string) => string;
  /** CLINIC_TIME_ZONE: "today" for a birth date of a patient whose profile has no time zone (UTC when unset). */
  timeZone?: string;
  loginLimits?: LoginThrottleLimits;
  /** How long a patient's session may go unused before it ends (SESSION_IDLE_MINUTES). */
  idleTimeoutMs?: number;
  /** How long a process remembers a token's owner (SESSION_CACHE_MS, ADR 069); none when left out. */
  sessionCacheMs?: number;
  /** Told of each token that authenticates a person, so the general limit counts people apart. */
  onAuthenticated?: (token: string, userId: string) => void;
};

/** The user as both APIs return it (userSchema): never the hash, never the service flag. */
export function toUser(row: UserRow): User {
  const fields = {
    id: row.id,
    email: row.email,
    first_name: row.firstName,
    last_name: row.lastName,
    date_of_birth: row.dateOfBirth,
    phone: row.phone,
    address_line1: row.addressLine1,
    address_line2: row.addressLine2,
    city: row.city,
    state: row.state,
    zip: row.zip,
    gender: row.gender,
  };
  // The stamp says when; the fields say whether (a profile filled in before the stamp existed counts).
  return {
    ...fields,
    locale: row.locale,
    time_zone: row.timeZone,
    profile_completed: row.profileCompletedAt !== null || isProfileComplete(fields),
    created_at: row.createdAt.toISOString(),
    role: row.role,
  };
}

function forbiddenUnlessOwn(auth: AuthContext, userId: string): void {
  // The service account is nobody's patient: its token reads and changes no account. A UUID may
  // arrive in capitals; PostgreSQL returns it in lower case.
  if (auth.isServiceAccount || auth.userId !== userId.toLowerCase()) {
    throw new AppError("OWN_ACCOUNT_ONLY", 403, AUTH_ERRORS.ownAccountOnly, {
      refusedAccess: { ownerUserId: userId, resourceType: "profile", resourceId: null },
    });
  }
}

function badRequest(code: ErrorCode, message: string): AppError {
  return new AppError(code, 400, message);
}

function incorrectCredentials(): AppError {
  return new AppError("INVALID_CREDENTIALS", 401, AUTH_ERRORS.incorrectCredentials);
}

type ProfileInput = Omit<Partial<CompleteProfileRequest>, "user_id"> & {
  locale?: Locale | undefined;
  time_zone?: string | undefined;
};

/** Request fields → columns; an empty second address line clears it. */
function profileChanges(input: ProfileInput): ProfileChanges {
  const changes: ProfileChanges = {};
  if (input.first_name !== undefined) changes.firstName = input.first_name;
  if (input.last_name !== undefined) changes.lastName = input.last_name;
  if (input.date_of_birth !== undefined) changes.dateOfBirth = input.date_of_birth;
  if (input.phone !== undefined) changes.phone = input.phone;
  if (input.address_line1 !== undefined) changes.addressLine1 = input.address_line1;
  if (input.address_line2 !== undefined) changes.addressLine2 = input.address_line2 || null;
  if (input.city !== undefined) changes.city = input.city;
  if (input.state !== undefined) changes.state = input.state;
  if (input.zip !== undefined) changes.zip = input.zip;
  if (input.gender !== undefined) changes.gender = input.gender;
  if (input.locale !== undefined) changes.locale = input.locale;
  if (input.time_zone !== undefined) changes.timeZone = input.time_zone;
  return changes;
}

/**
 * Accounts and sessions of both APIs (ADR 010, ADR 032): registration confirmed by e-mail, login with
 * throttling, logout, password reset by e-mail, password change, and the patient's profile.
 */
export function createAccountService(deps: AccountServiceDeps) {
  const { db, clock, settings, passwords } = deps;
  const users = createUserRepository(db);
  const tokens = createTokenRepository(db);
  const sessions = createSessionService({
    tokens,
    clock,
    ...(deps.idleTimeoutMs ? { idleTimeoutMs: deps.idleTimeoutMs } : {}),
    ...(deps.sessionCacheMs ? { cacheMs: deps.sessionCacheMs } : {}),
    ...(deps.onAuthenticated ? { onAuthenticated: deps.onAuthenticated } : {}),
  });
  const counters = createAttemptCounterRepository(db);
  const throttle = createLoginThrottle({
    counters,
    clock,
    keyHash: deps.keyHash,
    ...(deps.loginLimits ? { limits: deps.loginLimits } : {}),
  });
  const productNames = [settings.productName, settings.productSlug];
  const secondFactor = createSecondFactorService({
    db,
    clock,
    log: deps.log,
    users,
    sessions,
    throttle,
    counters,
    keyHash: deps.keyHash,
    encryptionKey: settings.secondFactorKey,
    productName: settings.productName,
    siteUrl: settings.siteUrl,
    sendMail,
  });

  function checkPassword(password: string, email: string): void {
    const problem = passwordProblem(password, { email, productNames });
    if (problem) throw badRequest(PASSWORD_PROBLEM_CODES[problem] ?? "BAD_REQUEST", problem);
  }

  function sendMail(
    template: MailTemplate,
    user: { email: string; locale: Locale; firstName: string | null },
    link: string,
  ): void {
    const rendered = renderMail(template, user.locale, {
      productName: settings.productName,
      firstName: user.firstName,
      link,
    });
    deps.mailer.dispatch({ ...rendered, to: user.email, template });
  }

  /**
   * A birth date may not be after the patient's today: in the zone this request sets, else their
   * profile's, else the clinic's (ISO dates compare as strings).
   */
  async function checkDateOfBirth(userId: string, date: string | undefined, zone?: string): Promise<void> {
    if (date === undefined) return;
    const patientZone = zone ?? (await users.findById(userId))?.timeZone;
    if (date > patientDayIn(clock.now(), patientZone, deps.timeZone)) {
      throw badRequest("DATE_OF_BIRTH_IN_FUTURE", AUTH_ERRORS.dateOfBirthInFuture);
    }
  }

  /**
   * A new single-use link of `purpose` for the account, replacing its unused older ones; answers
   * the token to put in the link (the database keeps only its hash).
   */
  async function issueMailToken(userId: string, purpose: MailTokenPurpose, ttlMs: number): Promise<string> {
    const token = generateToken();
    const now = clock.now();
    await db.transaction(async (tx) => {
      const txTokens = createTokenRepository(tx);
      await txTokens.deleteUnusedMailTokens(userId, purpose);
      await txTokens.insertMailToken({
        tokenHash: hashToken(token),
        userId,
        purpose,
        createdAt: now,
        expiresAt: new Date(now.getTime() + ttlMs),
      });
    });
    return token;
  }

  /** Counts a sign-up e-mail to the address; false once the hourly limit is reached. */
  async function signUpMailAllowed(email: string): Promise<boolean> {
    const sent = await counters.hit(deps.keyHash("sign-up-mail", email), HOUR_MS, clock.now());
    if (sent.hits <= SIGN_UP_MAILS_PER_HOUR) return true;
    deps.log.warn("sign-up e-mail not sent: hourly limit for the address reached");
    return false;
  }

  async function mailSignUpLink(user: {
    id: string;
    email: string;
    locale: Locale;
    firstName: string | null;
  }) {
    const token = await issueMailToken(user.id, "email-confirmation", SIGN_UP_LINK_TTL_MS);
    sendMail("sign-up-confirmation", user, `${settings.siteUrl}/sign-up/confirm?token=${token}`);
  }

  async function loadUser(userId: string): Promise<User> {
    const row = await users.findById(userId);
    if (!row) throw new AppError("NOT_FOUND", 404, "Not found");
    return toUser(row);
  }

  return {
    sessions,
    secondFactor,

    /**
     * Answers the same way, after the same work (hashing the password, one insert attempt, one
     * counter), whether or not the address has an account, so the answer never tells who has one.
     * A new address gets an unconfirmed account and a sign-up link; an address with an account is
     * left as it is, and its owner is told that someone tried to sign up with it.
     */
    async register(input: RegisterRequest): Promise<void> {
      checkPassword(input.password, input.email);
      const passwordHash = await passwords.hash(input.password);
      const mailAllowed = await signUpMailAllowed(input.email);
      const created = await users.insert({
        email: input.email,
        passwordHash,
        firstName: input.first_name,
        lastName: input.last_name,
        locale: input.locale ?? "en",
        isServiceAccount: false,
        emailConfirmedAt: null,
        createdAt: clock.now(),
      });
      if (created) {
        await mailSignUpLink(created);
        return;
      }
      const existing = await users.findCredentialsByEmail(input.email);
      if (!existing || existing.isServiceAccount || !mailAllowed) return;
      sendMail("sign-up-attempt", existing, `${settings.siteUrl}/login`);
    },

    /**
     * Spends the sign-up link: the address is confirmed and the patient logged in on both APIs
     * (the web sets both sessions, as after a login). The welcome e-mail goes out in the background.
     */
    async confirmEmail(token: string): Promise<ConfirmEmailResponse["data"]> {
      const logins = await db.transaction(async (tx) => {
        const txTokens = createTokenRepository(tx);
        const now = clock.now();
        const consumed = await txTokens.consumeMailToken(hashToken(token), "email-confirmation", now);
        if (!consumed) throw badRequest("SIGN_UP_LINK_INVALID", AUTH_ERRORS.signUpLinkInvalid);
        await createUserRepository(tx).confirmEmail(consumed.userId, now);
        await txTokens.deleteUnusedMailTokens(consumed.userId, "email-confirmation");
        const txSessions = createSessionService({ tokens: txTokens, clock });
        return {
          main: await txSessions.issue(consumed.userId, "main"),
          care: await txSessions.issue(consumed.userId, "care"),
        };
      });
      const account = await users.findCredentialsById(logins.main.user_id);
      if (account) sendMail("welcome", account, `${settings.siteUrl}/almost-there`);
      return logins;
    },

    /**
     * The care API's session for a main API login made moments ago, without the password: the web
     * server logs in on both APIs, and checking the password twice doubled the slowest step of a
     * login (argon2id is slow on purpose). Each main login is traded once, within
     * COMPANION_LOGIN_WINDOW_S; a refusal leaves the web server the ordinary care login.
     */
    async companionLogin(mainAccessToken: string): Promise<LoginResponse> {
      return db.transaction(async (tx) => {
        const txTokens = createTokenRepository(tx);
        const now = clock.now();
        const main = await txTokens.lockFreshMainToken(
          hashToken(mainAccessToken),
          now,
          new Date(now.getTime() - COMPANION_LOGIN_WINDOW_S * 1000),
        );
        if (!main || main.careIssuedSince) {
          throw new AppError("COMPANION_LOGIN_REFUSED", 401, AUTH_ERRORS.companionLoginRefused);
        }
        return createSessionService({ tokens: txTokens, clock }).issue(main.userId, "care", main.sessionKey);
      });
    },

    /**
     * The same 401 text, and about the same time, for an unknown e-mail and a wrong password. The
     * service account logs in on the care API only. Its failures do not count against its account:
     * its password is a long random secret nobody guesses, while locking it would stop every public
     * care call of the site (the address limit still applies).
     */
    async login(input: LoginRequest, surface: Surface, ip: string): Promise<LoginStepResponse> {
      const isServiceEmail = input.email === settings.serviceAccountEmail;
      const attempt = await throttle.begin({ email: input.email, ip, countAccount: !isServiceEmail });
      const account = await users.findCredentialsByEmail(input.email);
      const passwordOk = account
        ? await verifyPassword(account.passwordHash, input.password)
        : await passwords.verifyDummyPassword(input.password);
      // A disabled clinician gets the answer of a wrong password: the account no longer opens.
      if (!account || !passwordOk || account.disabled || (account.isServiceAccount && surface !== "care")) {
        await attempt.failed();
        throw incorrectCredentials();
      }
      if (account.emailConfirmedAt === null && !account.isServiceAccount) {
        // Only who knows the password gets here, so saying "not confirmed" reveals nothing new. A
        // session before the mailbox is proved would let whoever registered someone else's address
        // use the account; a fresh link is the way in.
        await attempt.succeeded();
        if (await signUpMailAllowed(account.email)) await mailSignUpLink(account);
        throw new AppError("EMAIL_NOT_CONFIRMED", 403, AUTH_ERRORS.emailNotConfirmed);
      }
      // A clinician without the factor gets a session that reaches only the factor's setup: the
      // care console's guard (guards.clinician) refuses it until the factor is on.
      const needsSecondStep = !account.isServiceAccount && (await secondFactor.isEnabled(account.id));
      if (needsSecondStep) await attempt.passedFirstStep();
      else await attempt.succeeded();
      if (passwords.needsRehash(account.passwordHash)) {
        await users.updatePasswordHash(account.id, await passwords.hash(input.password), clock.now());
      }
      // With a second factor the password alone opens no session: the code step does (ADR 024).
      if (needsSecondStep) return secondFactor.startPendingLogin(account.id);
      return sessions.issue(account.id, surface);
    },

    async logout(auth: AuthContext): Promise<void> {
      await sessions.revoke(auth.tokenHash);
    },

    async me(auth: AuthContext): Promise<User> {
      forbiddenUnlessOwn(auth, auth.userId);
      return loadUser(auth.userId);
    },

    /**
     * Sends a single-use reset link valid for 1 hour, replacing any unused older one. Says nothing
     * about whether the account exists: the caller always answers 200.
     */
    async requestPasswordReset(email: string): Promise<void> {
      // Counted for every address, known or not, so both cases cost the same database work.
      const sent = await counters.hit(deps.keyHash("reset-mail", email), RESET_TOKEN_TTL_MS, clock.now());
      const account = await users.findCredentialsByEmail(email);
      if (!account || account.isServiceAccount || account.disabled) return;
      if (sent.hits > RESET_MAILS_PER_HOUR) {
        deps.log.warn("password reset e-mail not sent: hourly limit for the account reached");
        return;
      }
      const token = await issueMailToken(account.id, "password-reset", RESET_TOKEN_TTL_MS);
      sendMail("password-reset", account, `${settings.siteUrl}/reset-password?token=${token}`);
    },

    /**
     * Sets a new password with a reset token. The token is checked and the new password validated
     * before the token is spent, so a refused password does not cost the patient the link. Every
     * session of the account ends: whoever knew the old password is logged out.
     */
    async resetPassword(input: ResetPasswordRequest): Promise<void> {
      const tokenHash = hashToken(input.token);
      const usable = await tokens.findUsableMailToken(tokenHash, "password-reset", clock.now());
      const account = usable && (await users.findCredentialsById(usable.userId));
      if (!account || account.disabled) throw badRequest("RESET_LINK_INVALID", AUTH_ERRORS.resetLinkInvalid);
      checkPassword(input.password, account.email);
      const passwordHash = await passwords.hash(input.password);
      await db.transaction(async (tx) => {
        const txTokens = createTokenRepository(tx);
        const now = clock.now();
        const consumed = await txTokens.consumeMailToken(tokenHash, "password-reset", now);
        if (!consumed) throw badRequest("RESET_LINK_INVALID", AUTH_ERRORS.resetLinkInvalid);
        const txUsers = createUserRepository(tx);
        await txUsers.updatePasswordHash(consumed.userId, passwordHash, now);
        // The link proved the mailbox, and the password is now its owner's: an account someone
        // else registered with this address (and whose password they know) becomes the owner's.
        await txUsers.confirmEmail(consumed.userId, now);
        await txTokens.revokeUserAccessTokens(consumed.userId, now);
        await txTokens.deleteUnusedMailTokens(consumed.userId, "password-reset");
      });
      // Following the link proved the mailbox: earlier failed logins no longer lock the patient out.
      await throttle.forgetAccount(account.email);
    },

    /**
     * Changes the password of the token's own account. A wrong current password counts as a failed
     * login, so a stolen token cannot be used to guess the password at leisure. Every other session
     * of the account ends (whoever knew the old password is signed out; the device that changed it
     * stays in), and the owner is told by e-mail, with a reset link in case it was not them.
     */
    async changePassword(auth: AuthContext, input: ChangePasswordRequest, ip: string): Promise<void> {
      forbiddenUnlessOwn(auth, input.user_id);
      const account = await users.findCredentialsById(input.user_id);
      if (!account) throw new AppError("NOT_FOUND", 404, "Not found");
      const attempt = await throttle.begin({ email: account.email, ip, countAccount: true });
      if (!(await verifyPassword(account.passwordHash, input.old_password))) {
        await attempt.failed();
        throw badRequest("WRONG_CURRENT_PASSWORD", AUTH_ERRORS.wrongCurrentPassword);
      }
      await attempt.succeeded();
      checkPassword(input.new_password, account.email);
      const passwordHash = await passwords.hash(input.new_password);
      await db.transaction(async (tx) => {
        const now = clock.now();
        await createUserRepository(tx).updatePasswordHash(account.id, passwordHash, now);
        await createTokenRepository(tx).revokeUserAccessTokens(account.id, now, auth.tokenHash);
      });
      sendMail("password-changed", account, `${settings.siteUrl}/forgot-password`);
    },

    async getUser(auth: AuthContext, userId: string): Promise<User> {
      forbiddenUnlessOwn(auth, userId);
      return loadUser(userId);
    },

    async updateUser(auth: AuthContext, input: UpdateUserRequest): Promise<User> {
      forbiddenUnlessOwn(auth, input.user_id);
      await checkDateOfBirth(input.user_id, input.date_of_birth, input.time_zone);
      const changes = profileChanges(input);
      if (Object.keys(changes).length === 0) return loadUser(input.user_id);
      const now = clock.now();
      const row = await users.updateProfile(input.user_id, changes, now);
      if (!row) throw new AppError("NOT_FOUND", 404, "Not found");
      const user = toUser(row);
      // Saving the last missing field from /my-profile completes the profile as /almost-there does.
      if (user.profile_completed || !isProfileComplete(user)) return user;
      const completed = await users.updateProfile(input.user_id, {}, now, { markCompleted: true });
      return toUser(completed ?? row);
    },

    /** Sets every required profile field and marks the profile complete (the first time only). */
    async completeProfile(auth: AuthContext, input: CompleteProfileRequest): Promise<User> {
      forbiddenUnlessOwn(auth, input.user_id);
      await checkDateOfBirth(input.user_id, input.date_of_birth);
      const now = clock.now();
      const row = await users.updateProfile(input.user_id, profileChanges(input), now, {
        markCompleted: true,
      });
      if (!row) throw new AppError("NOT_FOUND", 404, "Not found");
      return toUser(row);
    },
  };
}

export type AccountService = ReturnType<typeof createAccountService>;
