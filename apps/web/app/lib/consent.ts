/**
 * The analytics consent (ADR 017): a first-party cookie holding the visitor's choice for a
 * year. Plain data shared by the server (root loader, /cookie-consent) and the banner.
 */
export const CONSENT_COOKIE = "analyticsConsent";
export const CONSENT_MAX_AGE_S = 365 * 24 * 60 * 60;
export const CONSENT_CHOICES = ["granted", "denied"] as const;
export type ConsentChoice = (typeof CONSENT_CHOICES)[number];

export function isConsentChoice(value: unknown): value is ConsentChoice {
  return typeof value === "string" && (CONSENT_CHOICES as readonly string[]).includes(value);
}

/** What the root loader tells the page: the script to load after consent, and the choice so far. */
export type AnalyticsState = { scriptUrl: string; consent: ConsentChoice | null };
