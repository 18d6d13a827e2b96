import type { Locale } from "@ambercare/contracts/locales";

/**
 * The shape of the site's Markdown content once rendered (content/{en,bg}/**.md → markdown.server.ts,
 * at build time). Plain data, safe to import anywhere: the Markdown library itself never is.
 */

/** Part of a section's body: sanitised HTML, or a place where the page inserts live data. */
export type ContentChunk = { html: string } | { slot: "openings" };

/** A `###` question of the FAQ with its answer. */
export type ContentQuestion = {
  id: string;
  question: string;
  /** The answer as sanitised HTML. */
  html: string;
  /** The answer as plain text (JSON-LD). */
  text: string;
};

/** A `##` section: its heading (with the id the table of contents links to) and body. */
export type ContentSection = {
  id: string;
  title: string;
  body: ContentChunk[];
  /** The FAQ's questions (`###`) of this group; empty on every other page. */
  questions: ContentQuestion[];
};

export const OPENING_TYPES = ["Full-time", "Part-time"] as const;
export type OpeningType = (typeof OPENING_TYPES)[number];

export type ContentFrontMatter = {
  title: string;
  description: string;
  /** Legal pages: the date the text takes effect, `YYYY-MM-DD` (a string, never a Date). */
  effective?: string;
  /** Career openings. */
  location?: string;
  type?: OpeningType;
};

export type ContentDocument = ContentFrontMatter & {
  /** The file name without `.md`: the URL path (`privacy-policy`, `careers/senior-frontend-engineer`'s `senior-frontend-engineer`). */
  slug: string;
  /** Sanitised HTML before the first `##` heading. */
  intro: string;
  sections: ContentSection[];
};

/** Every document of one language. */
export type LocaleContent = {
  pages: Record<string, ContentDocument>;
  careers: Record<string, ContentDocument>;
};

/** Every document of every language: what `virtual:ambercare/content` exports. */
export type ContentTree = Record<Locale, LocaleContent>;
