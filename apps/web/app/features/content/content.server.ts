import content from "virtual:ambercare/content";
import { intlTag } from "@ambercare/contracts/locales";
import { TRIAL_DAYS } from "@ambercare/contracts/membership-constants";
import { formatUsd, PLANS, type PlanKey } from "@ambercare/contracts/plans";
import { VISIT_TYPES } from "@ambercare/contracts/visit-types";
import type { ContentDocument } from "#app/features/content/content-types.ts";
import { EXAMPLE_CONTACT_EMAIL_DOMAIN, EXAMPLE_CONTACT_PHONE, env } from "#app/lib/env.server.ts";
import { escapeHtml } from "#app/lib/html.ts";
import type { Locale } from "#app/lib/i18n.tsx";
import { requestLocale } from "#app/lib/locale.server.ts";
import { invariantResponse } from "#app/lib/misc.ts";

/**
 * The site's pages and career openings, rendered from Markdown at build time
 * (vite-plugin-content.ts). Server-only: loaders pick the visitor's language and send one document.
 */

/** The content pages: one Markdown file per language under content/<locale>/. */
export const CONTENT_PAGES = [
  "about",
  "ada-policy",
  "audio-video-recording-consent-in-ehrs",
  "careers",
  "disclaimer",
  "frequently-asked-questions",
  "informed-consent",
  "miscellaneous",
  "non-discrimination-notice",
  "patient-consent-for-financial-communications",
  "privacy-policy",
  "terms-of-use",
  "washington-consumer-health-data-privacy-notice",
] as const;
export type ContentPageSlug = (typeof CONTENT_PAGES)[number];

export type ClinicContacts = { emailDomain: string; phone: string; postalAddress?: string | undefined };

/** Where the Markdown leaves the postal address to the operator, in each language. */
export const POSTAL_ADDRESS_MARKS = [
  "[postal address — to be completed by the operator]",
  "[пощенски адрес — попълва се от оператора]",
] as const;

/**
 * The Markdown names the example mailboxes (`privacy@ambercare.example`) and phone number; a page
 * shows the clinic's own (CONTACT_EMAIL_DOMAIN, CONTACT_PHONE; ADR 020), in text and in links alike,
 * and the product's facts (CONTENT_FACTS) where the Markdown has their placeholders.
 */
export function withClinicContacts(document: ContentDocument, contacts: ClinicContacts): ContentDocument {
  const replace = (text: string) => {
    let result = withContentFacts(text)
      .replaceAll(`@${EXAMPLE_CONTACT_EMAIL_DOMAIN}`, `@${contacts.emailDomain}`)
      .replaceAll(EXAMPLE_CONTACT_PHONE, contacts.phone);
    if (contacts.postalAddress) {
      // The text goes into HTML as is: escape it.
      const address = escapeHtml(contacts.postalAddress);
      for (const mark of POSTAL_ADDRESS_MARKS) result = result.replaceAll(mark, address);
    }
    return result;
  };
  const copy = (value: unknown): unknown => {
    if (typeof value === "string") return replace(value);
    if (Array.isArray(value)) return value.map(copy);
    if (value && typeof value === "object") {
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, copy(item)]));
    }
    return value;
  };
  return copy(document) as ContentDocument;
}

/** "$9", "$108": both languages' pages write prices in U.S. dollars the American way. */
const price = (key: PlanKey) => formatUsd(PLANS[key].chargeCents);

/**
 * The product's facts the Markdown states, as `{{name}}` placeholders filled in from
 * packages/contracts, so that a new trial length or price changes every page with it. A test checks
 * that every placeholder of every page has a value.
 */
export const CONTENT_FACTS: Readonly<Record<string, string>> = Object.freeze({
  trialDays: String(TRIAL_DAYS),
  monthlyPrice: price("subscription_monthly"),
  yearlyPrice: price("subscription_yearly"),
  // chatVisitPrice, videoVisitPrice: the one-time price of each kind of visit.
  ...Object.fromEntries(VISIT_TYPES.map((visit) => [`${visit.id}VisitPrice`, price(visit.planKey)])),
});

/** Fills in `{{name}}`; an unknown name stays visible as it is (and fails the content test). */
export function withContentFacts(text: string): string {
  return text.replace(
    /\{\{\s*([A-Za-z]+)\s*\}\}/g,
    (placeholder, name: string) => CONTENT_FACTS[name] ?? placeholder,
  );
}

const clinicContacts: ClinicContacts = {
  emailDomain: env.CONTACT_EMAIL_DOMAIN,
  phone: env.CONTACT_PHONE,
  postalAddress: env.CONTACT_POSTAL_ADDRESS,
};
const withContactsCache = new WeakMap<ContentDocument, ContentDocument>();
/** The document with this server's contacts, made once per document (the settings never change). */
function localized(document: ContentDocument): ContentDocument {
  let result = withContactsCache.get(document);
  if (!result) {
    result = withClinicContacts(document, clinicContacts);
    withContactsCache.set(document, result);
  }
  return result;
}

/** A content page in the visitor's language; a missing file fails loudly (the parity test prevents it). */
export function getContentPage(locale: Locale, slug: ContentPageSlug): ContentDocument {
  const document = content[locale].pages[slug];
  if (!document) throw new Error(`content/${locale}/${slug}.md is missing`);
  return localized(document);
}

/** What a list of openings shows. */
export type OpeningSummary = Pick<ContentDocument, "slug" | "title" | "description" | "location" | "type">;

/** The open positions in the visitor's language, by title. */
export function listOpenings(locale: Locale): OpeningSummary[] {
  return Object.values(content[locale].careers)
    .map(({ slug, title, description, location, type }) => ({ slug, title, description, location, type }))
    .sort((a, b) => a.title.localeCompare(b.title, locale));
}

/** One opening; an unknown slug is the 404 page. */
export function requireOpening(locale: Locale, slug: string | undefined): ContentDocument {
  const opening =
    slug !== undefined && Object.hasOwn(content[locale].careers, slug)
      ? content[locale].careers[slug]
      : undefined;
  invariantResponse(opening, "Page Not Found", { status: 404 });
  return localized(opening);
}

/** Slugs of every opening (the same in both languages: the parity test checks it). */
export function openingSlugs(): string[] {
  return Object.keys(content.en.careers).sort();
}

/** The effective date of a legal page, written the way the visitor's language writes dates. */
export function formatEffectiveDate(effective: string, locale: Locale): string {
  return new Intl.DateTimeFormat(intlTag(locale), {
    dateStyle: "long",
    timeZone: "UTC",
  }).format(new Date(`${effective}T00:00:00Z`));
}

/** What a content page's loader returns: the document in the visitor's language and its date, formatted. */
export type ContentPageData = { document: ContentDocument; effectiveDate: string | null };

export function loadContentPage(request: Request, slug: ContentPageSlug): ContentPageData {
  const locale = requestLocale(request);
  const document = getContentPage(locale, slug);
  return {
    document,
    effectiveDate: document.effective ? formatEffectiveDate(document.effective, locale) : null,
  };
}
