import { randomBytes } from "node:crypto";
import type { DutyStatus } from "@ambercare/contracts/console";
import { DEFAULT_LOCALE, type Locale } from "@ambercare/contracts/locales";
import { CLINICIAN_INVITE_TTL_MS, type ClinicianProfile } from "@ambercare/contracts/roles";
import type { Database, Executor } from "@ambercare/db/client";
import type { Passwords } from "#api/modules/accounts/passwords.ts";
import { createTokenRepository } from "#api/modules/accounts/token-repository.ts";
import { generateToken, hashToken } from "#api/modules/accounts/tokens.ts";
import {
  type ClinicianListing,
  createClinicianRepository,
  type ProviderRef,
} from "#api/modules/care-console/clinician-repository.ts";
import { expectedWaits } from "#api/modules/care-console/expected-wait.ts";
import type { Clock } from "#api/platform/clock.ts";
import type { Mailer } from "#api/platform/mail/mailer.ts";
import { renderMail } from "#api/platform/mail/templates.ts";

/**
 * Why an operator's command was refused; the message says it in words the operator can act on, the
 * code is what the operations console's API answers with it.
 */
export class CareTeamError extends Error {
  override name = "CareTeamError";
  constructor(
    message: string,
    readonly code:
      | "PROVIDER_NOT_FOUND"
      | "PROVIDER_ALREADY_LINKED"
      | "CLINICIAN_EMAIL_TAKEN"
      | "CLINICIAN_NOT_FOUND" = "CLINICIAN_NOT_FOUND",
  ) {
    super(message);
  }
}

export type InviteResult = {
  outcome: "invited" | "reinvited";
  userId: string;
  email: string;
  provider: ProviderRef;
};

export type CareTeamDeps = {
  db: Database;
  clock: Clock;
  mailer: Mailer;
  /** ARGON2_PARAMS' hashing. */
  passwords: Passwords;
  productName: string;
  /** The web's origin: the set-password link points at its /reset-password page. */
  siteUrl: string;
  /** VISIT_ACCEPT_TIMEOUT: the longest wait a request can expect. */
  acceptTimeoutMs: number;
  /** CLINIC_TIME_ZONE: a licence counts through its expiry date there (UTC when unset). */
  timeZone?: string;
};

/**
 * Stores an invitation's set-password link (a password-reset token of the account, valid for
 * CLINICIAN_INVITE_TTL_MS), in place of any unused one: clinicians' and operators' invitations.
 */
export async function storeSetPasswordToken(tx: Executor, userId: string, token: string, now: Date) {
  const tokens = createTokenRepository(tx);
  await tokens.deleteUnusedMailTokens(userId, "password-reset");
  await tokens.insertMailToken({
    tokenHash: hashToken(token),
    userId,
    purpose: "password-reset",
    createdAt: now,
    expiresAt: new Date(now.getTime() + CLINICIAN_INVITE_TTL_MS),
  });
}

export const providerName = (provider: Pick<ProviderRef, "firstName" | "lastName" | "credentials">) =>
  `${provider.firstName} ${provider.lastName}, ${provider.credentials}`;

/**
 * The care team, as an operator manages it from the command line: invite a clinician (an account
 * linked to one directory provider, with a set-password e-mail), list them, disable one. The
 * set-password link is a password-reset token of the account (longer-lived, and with its own
 * e-mail), so the web's /reset-password page sets the first password.
 */
export function createCareTeamService(deps: CareTeamDeps) {
  const { db, clock } = deps;
  const clinicians = createClinicianRepository(db);

  async function dutyStatusOf(row: { providerId: string; onDutySince: Date | null } | undefined) {
    if (!row) throw new CareTeamError("Not a clinician");
    const waits = row.onDutySince
      ? await expectedWaits(db, [row.providerId], clock.now(), deps.acceptTimeoutMs, deps.timeZone)
      : new Map<string, number>();
    return {
      on_duty: row.onDutySince !== null,
      since: row.onDutySince?.toISOString() ?? null,
      expected_wait_minutes: waits.get(row.providerId) ?? null,
    };
  }

  return {
    async invite(input: { email: string; providerSlug: string; locale?: Locale }): Promise<InviteResult> {
      const email = input.email.trim().toLowerCase();
      const provider = await clinicians.findProviderBySlug(input.providerSlug);
      if (!provider)
        throw new CareTeamError(`No provider has the slug "${input.providerSlug}".`, "PROVIDER_NOT_FOUND");
      const token = generateToken();
      const now = clock.now();
      // An unusable password: an argon2id hash of random bytes nobody keeps, so a login attempt
      // costs what any other does until the clinician chooses a password with the link.
      const unusableHash = await deps.passwords.hash(randomBytes(32).toString("base64url"));
      const result = await db.transaction(async (tx) => {
        const repository = createClinicianRepository(tx);
        const account = await repository.findAccountByEmail(email);
        const holder = await repository.findLinkOfProvider(provider.id);
        let userId: string;
        let outcome: InviteResult["outcome"];
        if (!account) {
          if (holder)
            throw new CareTeamError(
              `Provider "${provider.slug}" already has a clinician account.`,
              "PROVIDER_ALREADY_LINKED",
            );
          const created = await repository.insertAccount({
            email,
            passwordHash: unusableHash,
            firstName: provider.firstName,
            lastName: provider.lastName,
            locale: input.locale ?? DEFAULT_LOCALE,
            now,
          });
          await repository.link(created.id, provider.id, now);
          userId = created.id;
          outcome = "invited";
        } else {
          if (account.isServiceAccount || account.role !== "clinician") {
            throw new CareTeamError(
              `${email} is a patient's account: a clinician needs an address of their own.`,
              "CLINICIAN_EMAIL_TAKEN",
            );
          }
          if (account.providerId !== provider.id) {
            throw new CareTeamError(`${email} is linked to another provider.`, "CLINICIAN_EMAIL_TAKEN");
          }
          // Inviting a disabled clinician again gives the account back.
          await repository.setDisabledAt(account.id, null);
          if (input.locale) await repository.setLocale(account.id, input.locale, now);
          userId = account.id;
          outcome = "reinvited";
        }
        await storeSetPasswordToken(tx, userId, token, now);
        const locale = input.locale ?? account?.locale ?? DEFAULT_LOCALE;
        return { outcome, userId, locale };
      });
      const link = `${deps.siteUrl}/reset-password?token=${token}`;
      const rendered = renderMail("clinician-invite", result.locale, {
        productName: deps.productName,
        firstName: provider.firstName,
        link,
      });
      // Delivered before answering: the operator learns at once when the mail did not go out.
      await deps.mailer.send({ ...rendered, to: email, template: "clinician-invite" });
      return { outcome: result.outcome, userId: result.userId, email, provider };
    },

    list(): Promise<ClinicianListing[]> {
      return clinicians.list();
    },

    /**
     * Ends the account's access: every session revoked, logins and password resets refused (the
     * login reads `disabled_at`), the unused set-password link spent. Answers how many sessions ended.
     */
    async disable(emailInput: string): Promise<{ userId: string; sessionsEnded: number }> {
      const email = emailInput.trim().toLowerCase();
      return db.transaction(async (tx) => {
        const repository = createClinicianRepository(tx);
        const account = await repository.findAccountByEmail(email);
        if (!account || account.providerId === null) {
          throw new CareTeamError(`No clinician account has the address ${email}.`);
        }
        const now = clock.now();
        await repository.setDisabledAt(account.id, account.disabledAt ?? now);
        const tokens = createTokenRepository(tx);
        const sessionsEnded = await tokens.revokeUserAccessTokens(account.id, now);
        await tokens.deleteUnusedMailTokens(account.id, "password-reset");
        return { userId: account.id, sessionsEnded };
      });
    },

    /** Whether the clinician takes requests now, and the wait a new request can expect. */
    async duty(userId: string): Promise<DutyStatus> {
      return dutyStatusOf(await clinicians.duty(userId));
    },

    /** Goes on or off duty: the directory's "Available today" of their provider follows. */
    async setDuty(userId: string, onDuty: boolean): Promise<DutyStatus> {
      return dutyStatusOf(await clinicians.setOnDuty(userId, onDuty, clock.now()));
    },

    /** The logged-in clinician and the provider they work as (the console's header). */
    async profile(userId: string): Promise<ClinicianProfile> {
      const found = await clinicians.profile(userId);
      if (!found) throw new CareTeamError("Not a clinician");
      return {
        user_id: userId,
        email: found.email,
        name: `${found.provider.firstName} ${found.provider.lastName}`,
        provider: {
          id: found.provider.id,
          slug: found.provider.slug,
          name: providerName(found.provider),
          credentials: found.provider.credentials,
        },
      };
    },
  };
}

export type CareTeamService = ReturnType<typeof createCareTeamService>;
