import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import type { ContentDocument, ContentTree } from "#app/features/content/content-types.ts";
import { renderContentDocument } from "#app/features/content/markdown.server.ts";
// A relative path, not @ambercare/contracts: Vite loads its config (and this file) under plain Node,
// which runs a workspace package's TypeScript only when the config bundle inlines it.
import { LOCALES, type Locale } from "../../../../../packages/contracts/src/locales.ts";

/**
 * Reads and renders every content file: `content/<locale>/<page>.md` and
 * `content/<locale>/careers/<opening>.md`. Build time only (vite-plugin-content.ts) and unit tests.
 */

/** The page whose `###` headings are questions. */
export const FAQ_SLUG = "frequently-asked-questions";
/** The page whose list of /careers/<slug> links is replaced by the live list of openings. */
export const CAREERS_SLUG = "careers";

/** Markdown files directly in `dir`, sorted, as slugs (file names without `.md`). */
export function markdownSlugs(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".md"))
    .map((entry) => entry.name.slice(0, -3))
    .sort();
}

function checkSlug(slug: string, file: string): void {
  if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(slug))
    throw new Error(`${file}: a content file name is lower-case words joined by dashes`);
}

function renderDir(
  contentDir: string,
  dir: string,
  locale: Locale,
  kind: "pages" | "careers",
): Record<string, ContentDocument> {
  const documents: Record<string, ContentDocument> = {};
  for (const slug of markdownSlugs(dir)) {
    const path = join(dir, `${slug}.md`);
    const file = relative(contentDir, path);
    checkSlug(slug, file);
    const document = renderContentDocument(readFileSync(path, "utf8"), {
      slug,
      locale,
      file,
      questions: kind === "pages" && slug === FAQ_SLUG,
      openingsSlot: kind === "pages" && slug === CAREERS_SLUG,
    });
    if (kind === "careers" && (!document.location || !document.type))
      throw new Error(`${file}: an opening needs location and type (Full-time or Part-time)`);
    documents[slug] = document;
  }
  return documents;
}

/** Every page and opening of every language, rendered. */
export function loadContent(contentDir: string): ContentTree {
  const tree = {} as ContentTree;
  for (const locale of LOCALES) {
    const dir = join(contentDir, locale);
    tree[locale] = {
      pages: renderDir(contentDir, dir, locale, "pages"),
      careers: renderDir(contentDir, join(dir, "careers"), locale, "careers"),
    };
  }
  return tree;
}

/** Every content file, for a watcher. */
export function contentFiles(contentDir: string): string[] {
  return LOCALES.flatMap((locale) => {
    const dir = join(contentDir, locale);
    const careers = join(dir, "careers");
    return [
      ...markdownSlugs(dir).map((slug) => join(dir, `${slug}.md`)),
      ...markdownSlugs(careers).map((slug) => join(careers, `${slug}.md`)),
    ];
  });
}
