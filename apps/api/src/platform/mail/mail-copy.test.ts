import { readdirSync, readFileSync } from "node:fs";
import { CONTACT_SOURCES, CONTACT_TOPICS } from "@ambercare/contracts/communications-constants";
import { DEFAULT_LOCALE, LOCALES, type Locale } from "@ambercare/contracts/locales";
import { BILLING_INTERVALS } from "@ambercare/contracts/membership-constants";
import { PLAN_KEYS } from "@ambercare/contracts/plans";
import { CONSULTATION_TYPES } from "@ambercare/contracts/provider-limits";
import { describe, expect, it } from "vitest";
import {
  contactAcknowledgement,
  contactNotification,
  dataDeletion,
  listConfirmation,
  listWelcome,
} from "#api/modules/communications/communication-mail.ts";
import { renderVisitMail, type VisitMailTemplate } from "#api/modules/consultations/visit-mail.ts";
import { type MembershipNotice, renderMembershipMail } from "#api/modules/membership/membership-mail.ts";
import { catalogueFile, fill, mailT } from "#api/platform/mail/mail-copy.ts";
import { type MailTemplate, type RenderedMail, renderMail } from "#api/platform/mail/templates.ts";

/**
 * The e-mail catalogues: every language says everything English says, with the same placeholders,
 * so no e-mail falls back to English or shows a `{{name}}`; and every e-mail renders in every
 * language.
 */

type Tree = { [key: string]: unknown };

/** Every leaf as [dotted key, value]; a value that is neither a string nor an object is reported. */
function leaves(tree: Tree, prefix = ""): Array<[string, unknown]> {
  return Object.entries(tree).flatMap(([key, value]) =>
    value !== null && typeof value === "object" && !Array.isArray(value)
      ? leaves(value as Tree, `${prefix}${key}.`)
      : [[`${prefix}${key}`, value] as [string, unknown]],
  );
}

const catalogues = Object.fromEntries(
  LOCALES.map((locale) => [locale, new Map(leaves(JSON.parse(readFileSync(catalogueFile(locale), "utf8"))))]),
) as Record<Locale, Map<string, unknown>>;
const english = catalogues[DEFAULT_LOCALE];
const translations = LOCALES.filter((locale) => locale !== DEFAULT_LOCALE);

const placeholders = (text: unknown) =>
  [...String(text).matchAll(/\{\{\s*([\w.-]+)\s*\}\}/g)].map((m) => m[1] ?? "").sort();

describe("e-mail catalogues", () => {
  it("has a file for every language and none for a language Ambercare does not speak", () => {
    const files = readdirSync(new URL(".", catalogueFile(DEFAULT_LOCALE))).sort();
    expect(files).toEqual(LOCALES.map((locale) => `${locale}.json`).sort());
  });

  it.each(translations)("has every English key in %s", (locale) => {
    const missing = [...english.keys()].filter((key) => !catalogues[locale].has(key));
    expect(missing, `keys in en.json but not in ${locale}.json`).toEqual([]);
  });

  it.each(translations)("has no key in %s that English lacks", (locale) => {
    const extra = [...catalogues[locale].keys()].filter((key) => !english.has(key));
    expect(extra, `keys in ${locale}.json but not in en.json`).toEqual([]);
  });

  it.each(LOCALES)("has only non-empty strings in %s", (locale) => {
    const bad = [...catalogues[locale]].filter(
      ([, value]) => typeof value !== "string" || value.trim() === "",
    );
    expect(bad.map(([key]) => key)).toEqual([]);
  });

  it.each(translations)("uses the same {{placeholders}} in %s as in English", (locale) => {
    const mismatched = [...english].filter(
      ([key, value]) =>
        JSON.stringify(placeholders(value)) !== JSON.stringify(placeholders(catalogues[locale].get(key))),
    );
    expect(mismatched.map(([key]) => key)).toEqual([]);
  });

  it.each(translations)("really translates: no %s string is a copy of an English sentence", (locale) => {
    const words = (text: unknown) => String(text).replace(/\{\{[^}]*\}\}/g, "");
    const copied = [...english].filter(
      ([key, value]) => /[a-z]{3,}\s+[a-z]{3,}/i.test(words(value)) && catalogues[locale].get(key) === value,
    );
    expect(copied.map(([key]) => key)).toEqual([]);
  });
});

describe("fill", () => {
  it("fills every placeholder once, and leaves braces inside a value as they are", () => {
    expect(fill("Hello {{firstName}}, {{ firstName }}", { firstName: "{{x}} $& Ana" })).toBe(
      "Hello {{x}} $& Ana, {{x}} $& Ana",
    );
  });

  it("throws on a placeholder without a value rather than mail it", () => {
    expect(() => fill("Hello {{firstName}},", {})).toThrow(/firstName/);
    expect(() => mailT("en")("common.signature")).toThrow(/productName/);
  });
});

describe("every e-mail in every language", () => {
  const link = "https://care.example.org/x?token=abc&y=1";
  const productName = "Ambercare";
  const at = new Date("2026-03-17T12:00:00Z");
  const accountTemplates: MailTemplate[] = [
    "password-reset",
    "password-changed",
    "welcome",
    "second-factor-reset",
    "second-factor-off",
    "sign-up-confirmation",
    "sign-up-attempt",
    "clinician-invite",
  ];
  const visitTemplates: VisitMailTemplate[] = [
    "visit-requested",
    "visit-accepted",
    "visit-expired",
    "visit-canceled",
    "visit-summary-ready",
  ];
  const notices: MembershipNotice[] = [
    ...BILLING_INTERVALS.flatMap((interval): MembershipNotice[] => [
      { template: "trial-started", userId: "u", firstChargeAt: at, interval },
      { template: "renewal-failed", userId: "u", interval, retryAt: at },
      { template: "renewal-failed", userId: "u", interval, retryAt: null },
      { template: "membership-resumed", userId: "u", nextChargeAt: at, interval },
      { template: "interval-changed", userId: "u", interval, fromDate: at },
    ]),
    { template: "membership-canceled", userId: "u", accessUntil: at },
    { template: "membership-canceled", userId: "u", accessUntil: null },
    ...PLAN_KEYS.map(
      (plan): MembershipNotice => ({
        template: "payment-received",
        userId: "u",
        invoice: {
          plan,
          seq: 7,
          amountCents: 4900,
          issuedAt: at,
          paidAt: at,
          periodStart: at,
          periodEnd: at,
          cardBrand: "visa",
          cardLast4: "4242",
        } as Extract<MembershipNotice, { template: "payment-received" }>["invoice"],
      }),
    ),
  ];

  function everyMail(locale: Locale): RenderedMail[] {
    return [
      ...accountTemplates.flatMap((template) =>
        [null, "Ana"].map((firstName) => renderMail(template, locale, { productName, firstName, link })),
      ),
      ...CONTACT_TOPICS.map((topic) =>
        contactAcknowledgement(locale, { productName, name: "Ana", topic, link }),
      ),
      listConfirmation(locale, { productName, link }),
      listWelcome(locale, { productName, link, unsubscribeLink: link }),
      dataDeletion(locale, { productName, firstName: null, link }),
      ...visitTemplates.flatMap((template) =>
        CONSULTATION_TYPES.flatMap((type) =>
          [undefined, { kind: "refunded" as const, amountCents: 4900 }].map((moneyBack) =>
            renderVisitMail(template, locale, {
              productName,
              firstName: "Ana",
              type,
              link,
              ...(moneyBack ? { moneyBack } : {}),
            }),
          ),
        ),
      ),
      ...notices.map((notice) =>
        renderMembershipMail(locale, notice, {
          productName,
          firstName: "Ana",
          timeZone: "UTC",
          links: { membership: link, billingHistory: link },
        }),
      ),
    ];
  }

  it.each(LOCALES)("renders each e-mail in %s with every placeholder filled", (locale) => {
    const mails = everyMail(locale);
    expect(mails.length).toBeGreaterThan(50);
    for (const mail of mails) {
      expect(`${mail.subject}\n${mail.text}\n${mail.html}`).not.toMatch(/\{\{|\}\}|undefined/);
      expect(mail.html).toContain(`<html lang="${locale}">`);
    }
  });

  it("writes the support team's notification in English, whatever the languages", () => {
    for (const source of CONTACT_SOURCES) {
      const mail = contactNotification({
        productName,
        entryId: "e-1",
        name: "Ana",
        email: "ana@example.org",
        topic: "general",
        segment: "patient",
        source,
        userId: null,
        message: "Hi",
      });
      expect(mail.html).toContain('<html lang="en">');
      expect(mail.text).toContain("Patient account: not logged in");
    }
  });
});
