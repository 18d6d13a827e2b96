import { AUTH_ERRORS } from "@ambercare/contracts/auth";
import type { ContactEntryRequest, ContactSource, SupportMessage } from "@ambercare/contracts/communications";
import { DEFAULT_LOCALE, type Locale } from "@ambercare/contracts/locales";
import type { Database } from "@ambercare/db/client";
import { contactEntries, users } from "@ambercare/db/schema";
import { and, desc, eq, isNull } from "drizzle-orm";
import type { AuthContext } from "#api/modules/accounts/session-service.ts";
import {
  contactAcknowledgement,
  contactNotification,
} from "#api/modules/communications/communication-mail.ts";
import type { Clock } from "#api/platform/clock.ts";
import { AppError } from "#api/platform/errors.ts";
import type { Mailer } from "#api/platform/mail/mailer.ts";

export type ContactSettings = {
  productName: string;
  siteUrl: string;
  supportEmail: string;
  supportSegment: string;
};

/**
 * Contact-form and support-widget messages (ADR 016): stored, acknowledged to the sender and sent
 * to SUPPORT_EMAIL. Both e-mails go out in the background, so the answer never waits for (or
 * fails with) the mail server.
 */
export function createContactService(deps: {
  db: Database;
  clock: Clock;
  mailer: Mailer;
  settings: ContactSettings;
}) {
  const { db, settings } = deps;

  return {
    /**
     * Stores an entry. With the service token the entry belongs to no account (a visitor); with a
     * patient's token it belongs to that patient, and a `user_id` naming anyone else is refused.
     */
    async save(auth: AuthContext, input: ContactEntryRequest): Promise<{ id: string }> {
      let userId: string | null = null;
      let accountLocale: Locale | undefined;
      if (auth.isServiceAccount) {
        if (input.user_id !== undefined)
          throw new AppError("OWN_ACCOUNT_ONLY", 403, AUTH_ERRORS.ownAccountOnly);
      } else {
        if (input.user_id !== undefined && input.user_id !== auth.userId) {
          throw new AppError("OWN_ACCOUNT_ONLY", 403, AUTH_ERRORS.ownAccountOnly, {
            refusedAccess: { ownerUserId: input.user_id, resourceType: "support_message", resourceId: null },
          });
        }
        userId = auth.userId;
        const [account] = await db.select({ locale: users.locale }).from(users).where(eq(users.id, userId));
        accountLocale = account?.locale;
      }
      const locale = input.locale ?? accountLocale ?? DEFAULT_LOCALE;
      const segment = input.segment ?? settings.supportSegment;
      const source: ContactSource = input.source ?? "contact_form";
      const [row] = await db
        .insert(contactEntries)
        .values({
          userId,
          name: input.name,
          email: input.email,
          topic: input.topic,
          message: input.message,
          segment,
          source,
          locale,
          createdAt: deps.clock.now(),
        })
        .returning({ id: contactEntries.id });
      if (!row) throw new Error("contact entry insert returned no row");

      const siteLink = userId ? `${settings.siteUrl}/my-profile/messages` : `${settings.siteUrl}/contact-us`;
      deps.mailer.dispatch({
        ...contactAcknowledgement(locale, {
          productName: settings.productName,
          name: input.name,
          topic: input.topic,
          link: siteLink,
        }),
        to: input.email,
        template: "contact-acknowledgement",
      });
      deps.mailer.dispatch({
        ...contactNotification({
          productName: settings.productName,
          entryId: row.id,
          name: input.name,
          email: input.email,
          topic: input.topic,
          segment,
          source,
          userId,
          message: input.message,
        }),
        to: settings.supportEmail,
        replyTo: input.email,
        template: "contact-notification",
      });
      return { id: row.id };
    },

    /** The patient's own entries, newest first (anonymised ones are no longer theirs). */
    async listOwn(auth: AuthContext): Promise<SupportMessage[]> {
      if (auth.isServiceAccount) throw new AppError("OWN_ACCOUNT_ONLY", 403, AUTH_ERRORS.ownAccountOnly);
      const rows = await db
        .select()
        .from(contactEntries)
        .where(and(eq(contactEntries.userId, auth.userId), isNull(contactEntries.anonymisedAt)))
        .orderBy(desc(contactEntries.createdAt), desc(contactEntries.id));
      return rows.map((row) => ({
        id: row.id,
        name: row.name ?? "",
        email: row.email ?? "",
        topic: row.topic,
        message: row.message ?? "",
        segment: row.segment,
        source: row.source,
        created_at: row.createdAt.toISOString(),
      }));
    },
  };
}

export type ContactService = ReturnType<typeof createContactService>;
