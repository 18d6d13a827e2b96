import {
  COMMUNICATION_ERRORS,
  DEFAULT_MAILING_LIST,
  type ListStatus,
  type MailingList,
} from "@ambercare/contracts/communications";
import type { Locale } from "@ambercare/contracts/locales";
import type { Database } from "@ambercare/db/client";
import { mailingListMembers } from "@ambercare/db/schema";
import { and, eq, gt } from "drizzle-orm";
import type { ListMirror } from "#api/integrations/email-lists/sendgrid-mirror.ts";
import { generateToken, hashToken } from "#api/modules/accounts/tokens.ts";
import { listConfirmation, listWelcome } from "#api/modules/communications/communication-mail.ts";
import type { ListTokens } from "#api/modules/communications/list-tokens.ts";
import type { Clock } from "#api/platform/clock.ts";
import { AppError } from "#api/platform/errors.ts";
import type { Mailer } from "#api/platform/mail/mailer.ts";
import type { RenderedMail } from "#api/platform/mail/templates.ts";

/** A confirmation link works for 7 days. */
export const CONFIRMATION_TTL_MS = 7 * 24 * 60 * 60_000;

export type MailingListSettings = {
  productName: string;
  /** The site's origin (PUBLIC_URL): confirmation and unsubscribe pages. */
  siteUrl: string;
  /** The API's public origin: the RFC 8058 one-click URL. */
  apiPublicUrl: string;
  /** The mailbox of the mailto: unsubscribe alternative. */
  unsubscribeMailbox: string;
};

type MemberRow = typeof mailingListMembers.$inferSelect;

const toStatus = (status: string): ListStatus["status"] =>
  status === "subscribed" ? "subscribed" : status === "unsubscribed" ? "unsubscribed" : "pending";

/**
 * E-mail lists with double opt-in (ADR 016). Marketing mail only goes out through `sendMarketing`,
 * which checks that the address confirmed and has not unsubscribed, and adds the RFC 8058 headers
 * and the footer link. Clinical and account e-mail never passes through here, so an unsubscribe
 * cannot block it.
 */
export function createMailingListService(deps: {
  db: Database;
  clock: Clock;
  mailer: Mailer;
  tokens: ListTokens;
  mirror: ListMirror;
  settings: MailingListSettings;
}) {
  const { db, settings } = deps;

  async function find(list: MailingList, email: string): Promise<MemberRow | undefined> {
    const [row] = await db
      .select()
      .from(mailingListMembers)
      .where(and(eq(mailingListMembers.list, list), eq(mailingListMembers.email, email)));
    return row;
  }

  async function setStatus(list: MailingList, email: string, status: "subscribed" | "unsubscribed") {
    const now = deps.clock.now();
    const changes =
      status === "subscribed"
        ? { status, confirmedAt: now, unsubscribedAt: null, updatedAt: now }
        : { status, unsubscribedAt: now, updatedAt: now };
    await db
      .insert(mailingListMembers)
      .values({ list, email, locale: "en", createdAt: now, ...changes })
      .onConflictDoUpdate({
        target: [mailingListMembers.list, mailingListMembers.email],
        set: { ...changes, confirmTokenHash: null, confirmExpiresAt: null },
      });
  }

  function unsubscribeLinks(list: MailingList, email: string) {
    const token = deps.tokens.issue(list, email);
    return {
      token,
      page: `${settings.siteUrl}/unsubscribe?token=${token}`,
      oneClick: `${settings.apiPublicUrl}/api/v1/api/list-unsubscribe?token=${token}`,
    };
  }

  const forgedToken = () => new AppError("LIST_LINK_INVALID", 403, COMMUNICATION_ERRORS.listTokenInvalid);

  function verifiedEmail(token: string, email?: string): { list: MailingList; email: string } {
    const read = deps.tokens.read(token);
    if (!read || (email !== undefined && read.email !== email)) throw forgedToken();
    return read;
  }

  const service = {
    /**
     * Puts `email` on the list as pending and sends the confirmation e-mail; an address already
     * subscribed gets nothing (and the caller's answer is the same either way).
     */
    async add(email: string, locale: Locale, list: MailingList = DEFAULT_MAILING_LIST): Promise<void> {
      const existing = await find(list, email);
      if (existing?.status === "subscribed") return;
      const now = deps.clock.now();
      const token = generateToken();
      const pending = {
        status: "pending",
        locale,
        confirmTokenHash: hashToken(token),
        confirmExpiresAt: new Date(now.getTime() + CONFIRMATION_TTL_MS),
        updatedAt: now,
      } satisfies Partial<MemberRow>;
      await db
        .insert(mailingListMembers)
        .values({ list, email, createdAt: now, ...pending })
        .onConflictDoUpdate({ target: [mailingListMembers.list, mailingListMembers.email], set: pending });
      const link = `${settings.siteUrl}/confirm-subscription?token=${token}`;
      deps.mailer.dispatch({
        ...listConfirmation(locale, { productName: settings.productName, link }),
        to: email,
        template: "list-confirmation",
      });
    },

    /** Follows a confirmation link: the address becomes subscribed and gets the welcome mail. */
    async confirm(token: string): Promise<ListStatus> {
      const now = deps.clock.now();
      const [row] = await db
        .update(mailingListMembers)
        .set({
          status: "subscribed",
          confirmTokenHash: null,
          confirmExpiresAt: null,
          confirmedAt: now,
          unsubscribedAt: null,
          updatedAt: now,
        })
        .where(
          and(
            eq(mailingListMembers.confirmTokenHash, hashToken(token)),
            eq(mailingListMembers.status, "pending"),
            gt(mailingListMembers.confirmExpiresAt, now),
          ),
        )
        .returning();
      if (!row)
        throw new AppError("CONFIRMATION_LINK_INVALID", 400, COMMUNICATION_ERRORS.confirmationInvalid);
      const list = row.list;
      deps.mirror.subscribed(row.email);
      await service.sendMarketing(list, row.email, (locale, unsubscribeLink) =>
        listWelcome(locale, { productName: settings.productName, link: settings.siteUrl, unsubscribeLink }),
      );
      return {
        email: row.email,
        list,
        status: "subscribed",
        unsubscribe_token: deps.tokens.issue(list, row.email),
      };
    },

    async unsubscribe(email: string, token: string): Promise<ListStatus> {
      const { list } = verifiedEmail(token, email);
      await setStatus(list, email, "unsubscribed");
      deps.mirror.unsubscribed(email);
      return { email, list, status: "unsubscribed" };
    },

    /** RFC 8058 one-click: the token alone names the address. */
    async oneClickUnsubscribe(token: string): Promise<void> {
      const { list, email } = verifiedEmail(token);
      await setStatus(list, email, "unsubscribed");
      deps.mirror.unsubscribed(email);
    },

    /**
     * Undoes an unsubscribe. The token came in a marketing e-mail, which only a confirmed address
     * receives, so no new confirmation is needed; an address no longer on the list (erased) is not
     * put back this way.
     */
    async resubscribe(email: string, token: string): Promise<ListStatus> {
      const { list } = verifiedEmail(token, email);
      const existing = await find(list, email);
      if (!existing || existing.confirmedAt === null) throw forgedToken();
      await setStatus(list, email, "subscribed");
      deps.mirror.subscribed(email);
      return { email, list, status: "subscribed" };
    },

    /**
     * Sends one marketing e-mail if, and only if, `email` is a confirmed, subscribed member of
     * `list`. Returns whether it was sent.
     */
    async sendMarketing(
      list: MailingList,
      email: string,
      render: (locale: Locale, unsubscribeLink: string) => RenderedMail,
    ): Promise<boolean> {
      const member = await find(list, email);
      if (member?.status !== "subscribed") return false;
      const links = unsubscribeLinks(list, email);
      deps.mailer.dispatch({
        ...render(member.locale, links.page),
        to: email,
        template: "list-welcome",
        headers: {
          "List-Unsubscribe": `<${links.oneClick}>, <mailto:${settings.unsubscribeMailbox}?subject=unsubscribe>`,
          "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
      });
      return true;
    },

    /** Every list entry of an address (for the data export). */
    async membershipsOf(email: string): Promise<MemberRow[]> {
      return db.select().from(mailingListMembers).where(eq(mailingListMembers.email, email));
    },

    /** Removes an address from every list, here and at SendGrid (deletion request). */
    async erase(email: string): Promise<void> {
      const removed = await db
        .delete(mailingListMembers)
        .where(eq(mailingListMembers.email, email))
        .returning({ email: mailingListMembers.email });
      if (removed.length > 0) deps.mirror.erased(email);
    },

    statusOf: toStatus,
  };
  return service;
}

export type MailingListService = ReturnType<typeof createMailingListService>;
