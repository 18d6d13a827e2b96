import { createHmac, hkdfSync } from "node:crypto";
import {
  listTokenEmail,
  MAILING_LISTS,
  type MailingList,
} from "@ambercare/contracts/communications-constants";
import { safeEqual } from "#api/modules/accounts/tokens.ts";

/**
 * Unsubscribe tokens (ADR 016): `base64url(list + "\n" + email) + "." + base64url(HMAC-SHA-256)`.
 * The token names its address, so a link needs nothing else and works without a login or a database
 * lookup (RFC 8058 one-click); the HMAC, under LIST_TOKEN_SECRET, makes it unforgeable. It does not
 * expire: an old newsletter's link must still unsubscribe.
 */
export function createListTokens(secret: string) {
  const key = Buffer.from(hkdfSync("sha256", secret, "ambercare", "list tokens", 32));
  const mac = (list: string, email: string) =>
    createHmac("sha256", key).update(`list-token\u0000${list}\u0000${email}`).digest("base64url");

  return {
    issue(list: MailingList, email: string): string {
      return `${Buffer.from(`${list}\n${email}`, "utf8").toString("base64url")}.${mac(list, email)}`;
    },

    /** The list and address of a genuine token, or undefined for a forged or malformed one. */
    read(token: string): { list: MailingList; email: string } | undefined {
      const [payload, signature, ...rest] = token.split(".");
      if (!payload || !signature || rest.length > 0) return undefined;
      const [list, email] = Buffer.from(payload, "base64url").toString("utf8").split("\n");
      if (!list || !email || !(MAILING_LISTS as readonly string[]).includes(list)) return undefined;
      if (listTokenEmail(token) !== email) return undefined;
      return safeEqual(signature, mac(list, email)) ? { list: list as MailingList, email } : undefined;
    },
  };
}

export type ListTokens = ReturnType<typeof createListTokens>;
