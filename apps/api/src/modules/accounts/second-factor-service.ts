import { AUTH_ERRORS, type LoginResponse } from "@ambercare/contracts/auth";
import type { AuditAction } from "@ambercare/contracts/consultation-limits";
import { DEMO_CLINICIAN } from "@ambercare/contracts/demo";
import type { AccountRole } from "@ambercare/contracts/roles";
import {
  PENDING_LOGIN_TTL_S,
  type PendingLoginResponse,
  SECOND_FACTOR_ERRORS,
  SECOND_FACTOR_RESET_TTL_MS,
  type SecondFactorStatus,
} from "@ambercare/contracts/second-factor";
import type { Database, Executor } from "@ambercare/db/client";
import type { FastifyBaseLogger } from "fastify";
import type { LoginThrottle } from "#api/modules/accounts/login-throttle.ts";
import { verifyPassword } from "#api/modules/accounts/passwords.ts";
import {
  createSecretBox,
  generateRecoveryCodes,
  generateTotpSecret,
  hashRecoveryCode,
  looksLikeRecoveryCode,
  otpauthUri,
  totpStepOf,
} from "#api/modules/accounts/second-factor-codes.ts";
import {
  createSecondFactorRepository,
  type SecondFactorRow,
} from "#api/modules/accounts/second-factor-repository.ts";
import type { AuthContext, SessionService } from "#api/modules/accounts/session-service.ts";
import { createTokenRepository, type Surface } from "#api/modules/accounts/token-repository.ts";
import { generateToken, hashToken } from "#api/modules/accounts/tokens.ts";
import {
  type Credentials,
  createUserRepository,
  type UserRepository,
} from "#api/modules/accounts/user-repository.ts";
import type { AttemptCounterRepository } from "#api/platform/attempt-counter-repository.ts";
import { createAuditRepository } from "#api/platform/audit-log.ts";
import type { Clock } from "#api/platform/clock.ts";
import { AppError } from "#api/platform/errors.ts";
import type { MailTemplate } from "#api/platform/mail/templates.ts";

/** At most this many lost-device e-mails per account per hour. */
const LOST_DEVICE_MAILS_PER_HOUR = 5;

/**
 * What an account's role demands of the second factor. Patients choose; every clinician must use
 * it: until it is on, a clinician's session reaches nothing but its setup (guards.clinician in
 * auth-guards.ts answers 403 SECOND_FACTOR_SETUP_REQUIRED, and the web sends the clinician to
 * /my-profile/security).
 */
const ROLES_REQUIRING_SECOND_FACTOR: ReadonlySet<AccountRole> = new Set<AccountRole>([
  "clinician",
  // An operator reaches every clinician's account and every patient's payments (ADR 065).
  "operator",
]);

export function roleRequiresSecondFactor(role: AccountRole): boolean {
  return ROLES_REQUIRING_SECOND_FACTOR.has(role);
}

/**
 * Switches the factor on for an account with a secret that is already known, without a first code
 * and without recovery codes: only the demo seed uses it, for the demo clinician whose secret the
 * README publishes. It never replaces a factor the account has.
 */
export async function enableKnownSecondFactor(
  db: Executor,
  input: { encryptionKey: string; userId: string; secret: string; now: Date },
): Promise<void> {
  const sealed = createSecretBox(input.encryptionKey).seal(input.secret, input.userId);
  await createSecondFactorRepository(db).insertEnabled(input.userId, sealed, input.now);
}

/**
 * Turns the demo clinician's factor on with the secret the README publishes, right after the demo
 * seed created the account (`npm start` on an empty database, with the demo accounts allowed).
 */
export async function enableDemoClinicianSecondFactor(db: Database, encryptionKey: string, now: Date) {
  const account = await createUserRepository(db).findCredentialsByEmail(DEMO_CLINICIAN.email);
  if (account?.role !== "clinician") return;
  await enableKnownSecondFactor(db, {
    encryptionKey,
    userId: account.id,
    secret: DEMO_CLINICIAN.totp_secret,
    now,
  });
}

export type SecondFactorDeps = {
  db: Database;
  clock: Clock;
  log: FastifyBaseLogger;
  users: UserRepository;
  sessions: SessionService;
  throttle: LoginThrottle;
  counters: AttemptCounterRepository;
  keyHash: (purpose: string, value: string) => string;
  /** SECOND_FACTOR_KEY: the key the TOTP secrets are encrypted under. */
  encryptionKey: string;
  productName: string;
  siteUrl: string;
  sendMail(template: MailTemplate, user: Credentials, link: string): void;
};

/**
 * The second factor of a patient's account (ADR 024): setting TOTP up and off, the second login
 * step with a code or a recovery code, and the "lost my device" link. A secret is never logged and
 * never leaves the API once the setup is confirmed.
 */
export function createSecondFactorService(deps: SecondFactorDeps) {
  const { db, clock } = deps;
  const factors = createSecondFactorRepository(db);
  const box = createSecretBox(deps.encryptionKey);

  const codeInvalid = (status: 400 | 401) =>
    new AppError("SECOND_FACTOR_CODE_INVALID", status, SECOND_FACTOR_ERRORS.codeInvalid);
  const pendingLoginInvalid = () =>
    new AppError("PENDING_LOGIN_INVALID", 401, SECOND_FACTOR_ERRORS.pendingLoginInvalid);
  const resetLinkInvalid = () =>
    new AppError("SECOND_FACTOR_RESET_LINK_INVALID", 400, SECOND_FACTOR_ERRORS.resetLinkInvalid);

  function ownPatientOnly(auth: AuthContext): void {
    if (auth.isServiceAccount) throw new AppError("OWN_ACCOUNT_ONLY", 403, AUTH_ERRORS.ownAccountOnly);
  }

  async function audit(tx: Executor, userId: string, action: AuditAction, ip: string | null) {
    await createAuditRepository(tx).record({
      userId,
      actorUserId: userId,
      actorKind: "patient",
      action,
      resourceType: "second_factor",
      resourceId: null,
      ip,
      at: clock.now(),
    });
  }

  async function loadCredentials(userId: string): Promise<Credentials> {
    const account = await deps.users.findCredentialsById(userId);
    if (!account) throw new AppError("NOT_FOUND", 404, "Not found");
    return account;
  }

  /**
   * Checks a code of the enabled factor and spends it: a TOTP code's step, or a recovery code.
   * Returns how it was proven, or undefined for a wrong, used or replayed code.
   */
  async function spendCode(
    tx: Executor,
    factor: SecondFactorRow,
    code: string,
  ): Promise<"totp" | "recovery-code" | undefined> {
    const now = clock.now();
    const repository = createSecondFactorRepository(tx);
    if (looksLikeRecoveryCode(code)) {
      return (await repository.spendRecoveryCode(factor.userId, hashRecoveryCode(code), now))
        ? "recovery-code"
        : undefined;
    }
    const step = totpStepOf(box.open(factor.secretCiphertext, factor.userId), code.replace(/\s/g, ""), now);
    if (step === undefined) return undefined;
    return (await repository.spendStep(factor.userId, step, now)) ? "totp" : undefined;
  }

  /** spendCode in its own transaction, with the audit entry when a recovery code was used. */
  async function proveWithCode(factor: SecondFactorRow, code: string, ip: string): Promise<boolean> {
    return db.transaction(async (tx) => {
      const proof = await spendCode(tx, factor, code);
      if (proof === "recovery-code") await audit(tx, factor.userId, "second_factor.recovery_code_used", ip);
      return proof !== undefined;
    });
  }

  async function enabledFactor(userId: string): Promise<SecondFactorRow | undefined> {
    const factor = await factors.find(userId);
    return factor?.enabledAt ? factor : undefined;
  }

  /**
   * Removes the factor and ends the account's sessions: a session opened with the factor must not
   * outlive it. `keepTokenHash` is the session that turned it off (it stays, with its other API's
   * token); the lost-device link has none, so every session ends, the lost device's included.
   */
  async function turnOff(
    account: Credentials,
    action: AuditAction,
    ip: string,
    tx: Executor,
    keepTokenHash?: string,
  ) {
    await createSecondFactorRepository(tx).remove(account.id);
    await createTokenRepository(tx).revokeUserAccessTokens(account.id, clock.now(), keepTokenHash);
    await audit(tx, account.id, action, ip);
  }

  /**
   * Runs `change` (in one transaction with spending the code) once the account's password and a
   * current code (or a recovery code) are proved; both count as login attempts. Answers the account.
   */
  async function withPasswordAndCode(
    auth: AuthContext,
    input: { password: string; code: string },
    ip: string,
    change: (account: Credentials, tx: Executor) => Promise<void>,
  ): Promise<Credentials> {
    ownPatientOnly(auth);
    const account = await loadCredentials(auth.userId);
    const factor = await enabledFactor(account.id);
    if (!factor) throw new AppError("SECOND_FACTOR_NOT_SET_UP", 409, SECOND_FACTOR_ERRORS.notSetUp);
    const attempt = await deps.throttle.begin({ email: account.email, ip, countAccount: true });
    if (!(await verifyPassword(account.passwordHash, input.password))) {
      await attempt.failed();
      throw new AppError("WRONG_CURRENT_PASSWORD", 400, AUTH_ERRORS.wrongCurrentPassword);
    }
    const codeSpent = await db.transaction(async (tx) => {
      if (!(await spendCode(tx, factor, input.code))) return false;
      await change(account, tx);
      return true;
    });
    if (!codeSpent) {
      await attempt.failed();
      throw codeInvalid(400);
    }
    await attempt.succeeded();
    return account;
  }

  return {
    isEnabled: (userId: string) => factors.isEnabled(userId),

    async status(auth: AuthContext): Promise<SecondFactorStatus> {
      ownPatientOnly(auth);
      const factor = await factors.find(auth.userId);
      if (!factor) return { enabled: false, recovery_codes_left: 0, pending_setup: null };
      if (factor.enabledAt) {
        return {
          enabled: true,
          recovery_codes_left: await factors.countUnusedRecoveryCodes(auth.userId),
          pending_setup: null,
        };
      }
      const account = await loadCredentials(auth.userId);
      const secret = box.open(factor.secretCiphertext, auth.userId);
      return {
        enabled: false,
        recovery_codes_left: 0,
        pending_setup: {
          secret,
          otpauth_uri: otpauthUri(secret, { issuer: deps.productName, label: account.email }),
        },
      };
    },

    /** A new secret for the authenticator app; it works only once confirmed with a code. */
    async startSetup(auth: AuthContext): Promise<{ secret: string; otpauth_uri: string }> {
      ownPatientOnly(auth);
      const account = await loadCredentials(auth.userId);
      const secret = generateTotpSecret();
      const started = await factors.startSetup(auth.userId, box.seal(secret, auth.userId), clock.now());
      if (!started) {
        throw new AppError("SECOND_FACTOR_ALREADY_ENABLED", 409, SECOND_FACTOR_ERRORS.alreadyEnabled);
      }
      return { secret, otpauth_uri: otpauthUri(secret, { issuer: deps.productName, label: account.email }) };
    },

    /** Switches the factor on with a current code of the new secret; answers the recovery codes, once. */
    async confirmSetup(auth: AuthContext, code: string, ip: string): Promise<string[]> {
      ownPatientOnly(auth);
      const factor = await factors.find(auth.userId);
      if (!factor || factor.enabledAt) {
        throw new AppError("SECOND_FACTOR_NOT_SET_UP", 409, SECOND_FACTOR_ERRORS.notSetUp);
      }
      const now = clock.now();
      const step = totpStepOf(box.open(factor.secretCiphertext, auth.userId), code, now);
      if (step === undefined) throw codeInvalid(400);
      const recoveryCodes = generateRecoveryCodes();
      await db.transaction(async (tx) => {
        const repository = createSecondFactorRepository(tx);
        if (!(await repository.spendStep(auth.userId, step, now, { enable: true }))) throw codeInvalid(400);
        await repository.replaceRecoveryCodes(auth.userId, recoveryCodes.map(hashRecoveryCode), now);
        await audit(tx, auth.userId, "second_factor.enable", ip);
      });
      return recoveryCodes;
    },

    /**
     * Turns the factor off with the password and a current code (or a recovery code). Both count
     * as login attempts, so a stolen session cannot guess either at leisure. The owner is told by e-mail.
     */
    async disable(auth: AuthContext, input: { password: string; code: string }, ip: string): Promise<void> {
      const account = await withPasswordAndCode(auth, input, ip, (account, tx) =>
        turnOff(account, "second_factor.disable", ip, tx, auth.tokenHash),
      );
      deps.sendMail("second-factor-off", account, `${deps.siteUrl}/forgot-password`);
    },

    /**
     * Ten new recovery codes, answered this once; the earlier ones stop working. Asks for what
     * turning the factor off asks for: a used-up or lost list must not be replaceable from a
     * session someone else found open.
     */
    async replaceRecoveryCodes(
      auth: AuthContext,
      input: { password: string; code: string },
      ip: string,
    ): Promise<string[]> {
      const recoveryCodes = generateRecoveryCodes();
      await withPasswordAndCode(auth, input, ip, async (account, tx) => {
        await createSecondFactorRepository(tx).replaceRecoveryCodes(
          account.id,
          recoveryCodes.map(hashRecoveryCode),
          clock.now(),
        );
        await audit(tx, account.id, "second_factor.recovery_codes_replaced", ip);
      });
      return recoveryCodes;
    },

    /** The password was right and the account has the factor on: a pending login, no session yet. */
    async startPendingLogin(userId: string): Promise<PendingLoginResponse> {
      const token = generateToken();
      const now = clock.now();
      await factors.insertPendingLogin({
        tokenHash: hashToken(token),
        userId,
        createdAt: now,
        expiresAt: new Date(now.getTime() + PENDING_LOGIN_TTL_S * 1000),
      });
      return { second_factor_required: true, pending_login_token: token, expires_in: PENDING_LOGIN_TTL_S };
    },

    /**
     * The second login step on `surface`. The first step to arrive needs a code (a TOTP code or a
     * recovery code) and is throttled like a password; once a code has verified the pending login,
     * each API can issue its one session with the token alone. Wrong codes also wear the pending
     * login out: after 5 the password is needed again.
     */
    async completeLogin(
      input: { pendingLoginToken: string; code?: string | undefined },
      surface: Surface,
      ip: string,
    ): Promise<LoginResponse> {
      const tokenHash = hashToken(input.pendingLoginToken);
      const pending = await factors.findPendingLogin(tokenHash, surface, clock.now());
      if (!pending) throw pendingLoginInvalid();
      if (!pending.verifiedAt) {
        if (!input.code) throw codeInvalid(401);
        const account = await loadCredentials(pending.userId);
        const factor = await enabledFactor(account.id);
        if (!factor) throw pendingLoginInvalid();
        const attempt = await deps.throttle.begin({ email: account.email, ip, countAccount: true });
        if (!(await proveWithCode(factor, input.code, ip))) {
          await factors.countFailedCode(tokenHash);
          await attempt.failed();
          throw codeInvalid(401);
        }
        await attempt.succeeded();
        await factors.markVerified(tokenHash, clock.now());
      }
      const claimed = await factors.claimSession(tokenHash, surface, clock.now());
      if (!claimed) throw pendingLoginInvalid();
      // Both APIs' sessions of one pending login are one browser session.
      return deps.sessions.issue(claimed.userId, surface, tokenHash);
    },

    /**
     * E-mails a single-use link that turns the factor off after the password is entered again. Only
     * a pending login (the password was right) can ask for it, so nobody else can fill the inbox.
     */
    async requestLostDeviceLink(pendingLoginToken: string): Promise<void> {
      const pending = await factors.findPendingLogin(hashToken(pendingLoginToken), "main", clock.now());
      if (!pending) throw pendingLoginInvalid();
      const account = await loadCredentials(pending.userId);
      const now = clock.now();
      const sent = await deps.counters.hit(
        deps.keyHash("second-factor-reset-mail", account.id),
        60 * 60_000,
        now,
      );
      if (sent.hits > LOST_DEVICE_MAILS_PER_HOUR) {
        deps.log.warn("lost-device e-mail not sent: hourly limit for the account reached");
        return;
      }
      const token = generateToken();
      await db.transaction(async (tx) => {
        await createSecondFactorRepository(tx).replaceResetToken({
          tokenHash: hashToken(token),
          userId: account.id,
          createdAt: now,
          expiresAt: new Date(now.getTime() + SECOND_FACTOR_RESET_TTL_MS),
        });
      });
      deps.sendMail("second-factor-reset", account, `${deps.siteUrl}/login/lost-device?token=${token}`);
    },

    /**
     * Turns the factor off with the e-mailed link and the password (the password is counted like a
     * login attempt). The link is spent only when the password was right; the owner is told by e-mail.
     */
    async resetWithLink(input: { token: string; password: string }, ip: string): Promise<void> {
      const tokenHash = hashToken(input.token);
      const usable = await factors.findUsableResetToken(tokenHash, clock.now());
      const account = usable && (await deps.users.findCredentialsById(usable.userId));
      if (!account) throw resetLinkInvalid();
      const attempt = await deps.throttle.begin({ email: account.email, ip, countAccount: true });
      if (!(await verifyPassword(account.passwordHash, input.password))) {
        await attempt.failed();
        throw new AppError("WRONG_CURRENT_PASSWORD", 400, AUTH_ERRORS.wrongCurrentPassword);
      }
      await db.transaction(async (tx) => {
        if (!(await createSecondFactorRepository(tx).consumeResetToken(tokenHash, clock.now()))) {
          throw resetLinkInvalid();
        }
        await turnOff(account, "second_factor.reset", ip, tx);
      });
      await attempt.succeeded();
      deps.sendMail("second-factor-off", account, `${deps.siteUrl}/forgot-password`);
    },
  };
}

export type SecondFactorService = ReturnType<typeof createSecondFactorService>;
