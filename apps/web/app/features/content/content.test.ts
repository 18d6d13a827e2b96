import { readFileSync } from "node:fs";
import { join } from "node:path";
import { LOCALES } from "@ambercare/contracts/locales";
import { TRIAL_DAYS } from "@ambercare/contracts/membership-constants";
import { formatUsd, PLANS } from "@ambercare/contracts/plans";
import { describe, expect, it } from "vitest";
import {
  CONTENT_PAGES,
  getContentPage,
  listOpenings,
  POSTAL_ADDRESS_MARKS,
  requireOpening,
  withClinicContacts,
  withContentFacts,
} from "#app/features/content/content.server.ts";
import {
  CAREERS_SLUG,
  FAQ_SLUG,
  loadContent,
  markdownSlugs,
} from "#app/features/content/content-source.server.ts";
import type { ContentDocument } from "#app/features/content/content-types.ts";
import { EXAMPLE_CONTACT_EMAIL_DOMAIN, EXAMPLE_CONTACT_PHONE } from "#app/lib/env.server.ts";
import { isRoutePath } from "#app/lib/pages.ts";
import { CONTENT_DIR } from "../../../vite-plugin-content.ts";

/**
 * The site's Markdown content in both languages (ADR 009: one test fails if a page exists in one
 * language and not the other). Reads the files themselves, then checks the rendered tree.
 */

const LEGAL_PAGES = [
  "privacy-policy",
  "terms-of-use",
  "disclaimer",
  "informed-consent",
  "audio-video-recording-consent-in-ehrs",
  "patient-consent-for-financial-communications",
  "non-discrimination-notice",
  "ada-policy",
  "washington-consumer-health-data-privacy-notice",
];

const files = (locale: string, sub = "") => markdownSlugs(join(CONTENT_DIR, locale, sub));
const tree = loadContent(CONTENT_DIR);

/** `##` section count per page, `###` count per FAQ group. */
function shape(document: ContentDocument): { sections: number; questions: number[] } {
  return {
    sections: document.sections.length,
    questions: document.sections.map((section) => section.questions.length),
  };
}

describe("content in both languages", () => {
  it.each([
    ["pages", ""],
    ["careers openings", "careers"],
  ])("has the same %s in English and Bulgarian", (_kind, sub) => {
    const [en, ...others] = LOCALES.map((locale) => files(locale, sub));
    expect(en?.length).toBeGreaterThan(0);
    for (const [index, other] of others.entries()) {
      const locale = LOCALES[index + 1];
      expect(other, `content/${locale}/${sub} against content/en/${sub}`).toEqual(en);
    }
  });

  it("has a page for every content route, and a route for every page", () => {
    expect(files("en")).toEqual([...CONTENT_PAGES].sort());
    for (const slug of CONTENT_PAGES) expect(isRoutePath(`/${slug}`), slug).toBe(true);
  });

  it.each(CONTENT_PAGES)("%s has the same ## sections (and FAQ questions) in every language", (slug) => {
    const en = tree.en.pages[slug];
    expect(en).toBeDefined();
    for (const locale of LOCALES) {
      const document = tree[locale].pages[slug];
      expect(document, `content/${locale}/${slug}.md`).toBeDefined();
      expect(shape(document as ContentDocument), `content/${locale}/${slug}.md`).toEqual(
        shape(en as ContentDocument),
      );
    }
    expect(en?.sections.length).toBeGreaterThan(1);
  });

  it.each(files("en", "careers"))(
    "the opening %s has the same ## sections and type in every language",
    (slug) => {
      const en = tree.en.careers[slug] as ContentDocument;
      for (const locale of LOCALES) {
        const document = tree[locale].careers[slug];
        expect(document, `content/${locale}/careers/${slug}.md`).toBeDefined();
        expect(document?.sections.length, `content/${locale}/careers/${slug}.md`).toBe(en.sections.length);
        expect(document?.type).toBe(en.type);
        expect(document?.location).toBeTruthy();
      }
    },
  );
});

describe("what the pages need from their content", () => {
  it.each(LEGAL_PAGES)("the legal page %s has the same effective date in every language", (slug) => {
    const dates = LOCALES.map((locale) => tree[locale].pages[slug]?.effective);
    expect(dates[0]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(new Set(dates).size).toBe(1);
  });

  it("gives the FAQ at least 20 questions in groups", () => {
    for (const locale of LOCALES) {
      const faq = tree[locale].pages[FAQ_SLUG] as ContentDocument;
      expect(faq.sections.length).toBeGreaterThan(1);
      expect(faq.sections.every((section) => section.questions.length > 0)).toBe(true);
      expect(faq.sections.flatMap((section) => section.questions).length).toBeGreaterThanOrEqual(20);
    }
  });

  it("lists in careers.md exactly the openings of content/<locale>/careers/", () => {
    for (const locale of LOCALES) {
      const careers = tree[locale].pages[CAREERS_SLUG] as ContentDocument;
      const slots = careers.sections.flatMap((section) => section.body.filter((chunk) => "slot" in chunk));
      expect(slots, `content/${locale}/careers.md has one list of openings`).toEqual([{ slot: "openings" }]);
    }
    // The list in the Markdown is replaced by the files; the links it had must match them.
    for (const locale of LOCALES) {
      const source = readFileSync(join(CONTENT_DIR, locale, `${CAREERS_SLUG}.md`), "utf8");
      const raw = new Set([...source.matchAll(/\]\(\/careers\/([a-z0-9-]+)\)/g)].map((m) => m[1]));
      expect([...raw].sort()).toEqual(files(locale, "careers"));
    }
    expect(files("en", "careers").length).toBeGreaterThanOrEqual(4);
  });

  it("links only to pages that exist", () => {
    const openings = new Set(files("en", "careers"));
    const broken: string[] = [];
    for (const locale of LOCALES) {
      const documents = [...Object.values(tree[locale].pages), ...Object.values(tree[locale].careers)];
      for (const document of documents) {
        const html = JSON.stringify(document);
        for (const [, href = ""] of html.matchAll(/href=\\"(\/[^"\\#?]*)/g)) {
          const opening = /^\/careers\/([a-z0-9-]+)$/.exec(href)?.[1];
          if (opening ? !openings.has(opening) : !isRoutePath(href))
            broken.push(`${locale}/${document.slug}: ${href}`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it("states no price and no trial length literally: they come from packages/contracts at build time", () => {
    const prices = new Set(
      Object.values(PLANS).flatMap((plan) => [formatUsd(plan.priceCents), formatUsd(plan.chargeCents)]),
    );
    for (const locale of LOCALES) {
      for (const slug of files(locale)) {
        const source = readFileSync(join(CONTENT_DIR, locale, `${slug}.md`), "utf8");
        for (const [amount = ""] of source.matchAll(/\$\d[\d,]*(?:\.\d\d)?/g)) {
          expect(prices, `${amount} in content/${locale}/${slug}.md`).not.toContain(amount.replace(/,$/, ""));
        }
        expect(source, `content/${locale}/${slug}.md`).not.toMatch(/\b\d+-(?:day|дневен)\b/);
      }
    }
  });

  it("fills in the trial's length and the plans' prices on the pages served, leaving no placeholder", () => {
    for (const locale of LOCALES) {
      for (const slug of CONTENT_PAGES) {
        expect(JSON.stringify(getContentPage(locale, slug)), `${locale}/${slug}`).not.toContain("{{");
      }
      const faq = JSON.stringify(getContentPage(locale, "frequently-asked-questions"));
      expect(faq).toContain(`${TRIAL_DAYS}-`);
      for (const plan of Object.values(PLANS)) expect(faq).toContain(formatUsd(plan.chargeCents));
    }
    expect(withContentFacts("A {{trialDays}}-day trial for {{ monthlyPrice }}")).toBe(
      `A ${TRIAL_DAYS}-day trial for ${formatUsd(PLANS.subscription_monthly.chargeCents)}`,
    );
    expect(withContentFacts("{{trialWeeks}}")).toBe("{{trialWeeks}}");
  });

  it("gives every page its own description", () => {
    for (const locale of LOCALES) {
      const documents = [...Object.values(tree[locale].pages), ...Object.values(tree[locale].careers)];
      const descriptions = documents.map((document) => document.description);
      expect(new Set(descriptions).size).toBe(descriptions.length);
    }
  });
});

describe("the content module the server is built with (virtual:ambercare/content)", () => {
  it("serves each page in the visitor's language", () => {
    expect(getContentPage("en", "privacy-policy").title).toBe("Privacy Policy");
    expect(getContentPage("bg", "privacy-policy").title).toBe("Политика за поверителност");
    expect(getContentPage("en", "privacy-policy").effective).toBe("2026-11-22");
  });

  it("lists the openings and 404s an unknown one", () => {
    expect(
      listOpenings("en")
        .map((opening) => opening.slug)
        .sort(),
    ).toEqual(files("en", "careers"));
    expect(requireOpening("bg", "senior-frontend-engineer").title).toBe(
      tree.bg.careers["senior-frontend-engineer"]?.title,
    );
    for (const slug of ["no-such-opening", "__proto__", "constructor", undefined]) {
      let thrown: unknown;
      try {
        requireOpening("en", slug);
      } catch (error) {
        thrown = error;
      }
      expect((thrown as { init?: { status?: number } }).init?.status, String(slug)).toBe(404);
    }
  });
});

describe("the clinic's contact details (ADR 020)", () => {
  const raw = (locale: string, page: string) => readFileSync(join(CONTENT_DIR, locale, `${page}.md`), "utf8");

  it("names only the example mailboxes and phone number in the Markdown, never a placeholder", () => {
    for (const locale of LOCALES) {
      for (const page of files(locale)) {
        const text = raw(locale, page);
        expect(text, `${locale}/${page}.md`).not.toMatch(/X{3}|\?{3}|TODO|TBD/);
        for (const [, domain] of text.matchAll(/[a-z]+@([a-z0-9.-]+\.[a-z]+)/g)) {
          expect(domain, `${locale}/${page}.md`).toBe(EXAMPLE_CONTACT_EMAIL_DOMAIN);
        }
        for (const [phone] of text.matchAll(/\b1-\d{3}-\d{3}-\d{4}\b/g)) {
          // Public hotlines (988, Poison Control, HHS) stay; the clinic's own number is the example.
          if (phone.slice(2, 5) === "800" && phone.endsWith("555-0199"))
            expect(phone).toBe(EXAMPLE_CONTACT_PHONE);
        }
      }
    }
    expect(raw("en", "non-discrimination-notice")).toContain(EXAMPLE_CONTACT_PHONE);
  });

  it("shows the clinic's mail domain and phone number in text and links, every language and page", () => {
    const contacts = { emailDomain: "clinic.example.org", phone: "1-888-555-0142" };
    for (const locale of LOCALES) {
      for (const page of CONTENT_PAGES) {
        const shown = JSON.stringify(withClinicContacts(tree[locale].pages[page]!, contacts));
        expect(shown, `${locale}/${page}`).not.toContain(EXAMPLE_CONTACT_EMAIL_DOMAIN);
        expect(shown, `${locale}/${page}`).not.toContain(EXAMPLE_CONTACT_PHONE);
      }
      const notice = JSON.stringify(
        withClinicContacts(tree[locale].pages["non-discrimination-notice"]!, contacts),
      );
      expect(notice).toContain("1-888-555-0142 (TTY: 711)");
      expect(notice).toContain("mailto:civilrights@clinic.example.org");
      // Without an address the mark stays, so the page says what is missing.
      expect(notice).toContain(locale === "en" ? POSTAL_ADDRESS_MARKS[0] : POSTAL_ADDRESS_MARKS[1]);
    }
  });

  it("puts the clinic's postal address where the text leaves it to the operator, as text", () => {
    const contacts = {
      emailDomain: "clinic.example.org",
      phone: "1-888-555-0142",
      postalAddress: "1 Main St <Suite 2>, Springfield, IL 62701",
    };
    for (const locale of LOCALES) {
      for (const page of [
        "privacy-policy",
        "terms-of-use",
        "ada-policy",
        "non-discrimination-notice",
      ] as const) {
        const shown = JSON.stringify(withClinicContacts(tree[locale].pages[page]!, contacts));
        expect(shown, `${locale}/${page}`).toContain("1 Main St &#60;Suite 2&#62;, Springfield, IL 62701");
        for (const mark of POSTAL_ADDRESS_MARKS) expect(shown).not.toContain(mark);
      }
    }
  });

  it("leaves the documents it was given untouched", () => {
    const page = tree.en.pages["ada-policy"]!;
    const before = JSON.stringify(page);
    withClinicContacts(page, { emailDomain: "clinic.example.org", phone: "1-888-555-0142" });
    expect(JSON.stringify(page)).toBe(before);
  });
});
