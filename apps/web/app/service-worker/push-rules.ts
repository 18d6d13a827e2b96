/**
 * What the service worker does with a push message and a click on its notification (ADR 064), as
 * pure functions the unit tests check: the message is read defensively (a bad one still shows the
 * generic line, since every push must show a notification), and a click only ever opens a page of
 * this site.
 */

export type ShownNotification = { title: string; body: string; url: string; tag: string };

const FALLBACK: Record<"en" | "bg", string> = {
  en: "You have an update.",
  bg: "Имате новина.",
};

/** A path of this site ("/my-profile/consultations/…"), never another origin. */
export function sitePath(value: unknown): string {
  if (typeof value !== "string" || !value.startsWith("/") || value.startsWith("//") || value.includes("\\"))
    return "/";
  return value;
}

export function readPushMessage(
  text: string | null,
  product: string,
  locale: "en" | "bg",
): ShownNotification {
  let parsed: Record<string, unknown> = {};
  try {
    const value = JSON.parse(text ?? "");
    if (value && typeof value === "object") parsed = value as Record<string, unknown>;
  } catch {
    // Unreadable: the generic line below.
  }
  const str = (key: string, fallback: string) => {
    const value = parsed[key];
    return typeof value === "string" && value.trim() !== "" ? value.slice(0, 500) : fallback;
  };
  return {
    title: str("title", product),
    body: str("body", FALLBACK[locale]),
    url: sitePath(parsed.url),
    tag: str("tag", "update"),
  };
}

export type WindowLike = { url: string; focused: boolean };

/**
 * The open tab a click should bring forward: one already on the page, else any tab of the site
 * (which is then sent to the page); null when there is none (a new window is opened).
 */
export function tabFor<T extends WindowLike>(
  tabs: readonly T[],
  path: string,
  origin: string,
): { tab: T; navigate: boolean } | null {
  const onSite = tabs.filter((tab) => {
    try {
      return new URL(tab.url).origin === origin;
    } catch {
      return false;
    }
  });
  const same = onSite.find((tab) => new URL(tab.url).pathname === path);
  if (same) return { tab: same, navigate: false };
  const any = onSite.find((tab) => tab.focused) ?? onSite[0];
  return any ? { tab: any, navigate: true } : null;
}
