import type { Locale } from "@ambercare/contracts/locales";
import MarkdownIt, { type MarkdownIt as Markdown, type Token } from "markdown-it";
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import {
  type ContentChunk,
  type ContentDocument,
  type ContentFrontMatter,
  type ContentQuestion,
  type ContentSection,
  OPENING_TYPES,
} from "#app/features/content/content-types.ts";

/**
 * The Markdown renderer of the site's content (content/{en,bg}/**.md). It runs at build time only,
 * inside the Vite plugin of vite-plugin-content.ts (and in unit tests): neither the server nor the
 * browser bundle contains it, only the HTML it produced.
 *
 * Safety is by construction and checked again afterwards:
 * - markdown-it with `html: false`: raw HTML in the source is escaped text, never markup;
 * - links pass an allow-list (http, https, mailto, tel, same-site relative paths); any other link
 *   stays plain text; images are off; external links get `rel="noopener noreferrer"`;
 * - `assertSafeHtml` then re-reads the output and throws (failing the build) on any tag or
 *   attribute outside a short allow-list.
 *
 * What it adds: ids on headings (for the table of contents), `lang`/`dir` on the taglines of the
 * non-discrimination notice that start with a language's own name (`**Español:** …`), the split of a
 * page into its intro and `##` sections, and the FAQ's `###` questions.
 */

// ---------------------------------------------------------------------------------------------
// Links

/** Whether a link may appear in content: http(s), mailto, tel, or a relative path on this site. */
export function isAllowedHref(href: string): boolean {
  const url = href.trim();
  if (url === "") return false;
  // Control characters and backslashes are read as "/" or dropped by browsers: never allowed.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting them is the point
  if (/[\u0000-\u001f\u007f\\]/.test(url)) return false;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase();
  if (scheme !== undefined) return ["http", "https", "mailto", "tel"].includes(scheme);
  // Protocol-relative URLs ("//evil.example") leave the site.
  return !url.startsWith("//");
}

export function isExternalHref(href: string): boolean {
  return /^https?:/i.test(href.trim());
}

// ---------------------------------------------------------------------------------------------
// Languages of the taglines

/**
 * Language names as written in their own language → BCP 47 tag. A list item starting with one of
 * them in bold (`**Español:** …`) is in that language: it gets `lang` (and `dir="rtl"` for scripts
 * written right to left) so screen readers pronounce it and browsers lay it out correctly.
 */
export const TAGLINE_LANGUAGES: Readonly<Record<string, { lang: string; rtl?: true }>> = Object.freeze({
  English: { lang: "en" },
  Español: { lang: "es" },
  繁體中文: { lang: "zh-Hant" },
  简体中文: { lang: "zh-Hans" },
  中文: { lang: "zh" },
  "Tiếng Việt": { lang: "vi" },
  한국어: { lang: "ko" },
  Tagalog: { lang: "tl" },
  Русский: { lang: "ru" },
  العربية: { lang: "ar", rtl: true },
  "Kreyòl Ayisyen": { lang: "ht" },
  Français: { lang: "fr" },
  Polski: { lang: "pl" },
  Português: { lang: "pt" },
  Italiano: { lang: "it" },
  Deutsch: { lang: "de" },
  日本語: { lang: "ja" },
  فارسی: { lang: "fa", rtl: true },
  Български: { lang: "bg" },
});

const TAGLINE_LANG_TAGS = new Set(Object.values(TAGLINE_LANGUAGES).map((entry) => entry.lang));

// ---------------------------------------------------------------------------------------------
// Slugs

/** `"How we use information"` → `"how-we-use-information"`; letters of any script are kept. */
export function slugify(text: string, locale: Locale): string {
  const slug = text
    .toLocaleLowerCase(locale)
    .replace(/[^\p{L}\p{N}]+/gu, "-")
    .replace(/^-+|-+$/g, "");
  return slug === "" ? "section" : slug;
}

// ---------------------------------------------------------------------------------------------
// The markdown-it instance

type RenderEnv = { locale: Locale; ids: Set<string> };

/** The plain text of an inline token (entities decoded, formatting dropped). */
function inlineText(token: Token | undefined): string {
  if (!token) return "";
  if (!token.children) return token.content;
  return token.children
    .map((child) => {
      if (child.type === "text" || child.type === "code_inline") return child.content;
      if (child.type === "softbreak" || child.type === "hardbreak") return " ";
      return "";
    })
    .join("");
}

/** The plain text of a run of block tokens: blocks separated by one space. */
export function tokensText(tokens: readonly Token[]): string {
  return tokens
    .filter((token) => token.type === "inline" || token.type === "code_block" || token.type === "fence")
    .map((token) => (token.type === "inline" ? inlineText(token) : token.content).trim())
    .filter((text) => text !== "")
    .join(" ");
}

function uniqueId(base: string, ids: Set<string>): string {
  let id = base;
  for (let n = 2; ids.has(id); n += 1) id = `${base}-${n}`;
  ids.add(id);
  return id;
}

const markdownCache = new Map<Locale, Markdown>();

/** markdown-it's typographic quotes (double then single, opening then closing) in each language. */
const QUOTES: Readonly<Record<Locale, string>> = { en: "“”‘’", bg: "„“‚‘" };

/** The configured markdown-it for one language (quotes differ: “…” in English, „…“ in Bulgarian). */
export function createMarkdown(locale: Locale): Markdown {
  const cached = markdownCache.get(locale);
  if (cached) return cached;
  const md = new MarkdownIt("default", {
    html: false,
    linkify: true,
    typographer: true,
    quotes: QUOTES[locale],
  });
  // Bare e-mail addresses become mailto: links; bare words with dots ("Node.js") stay words.
  md.linkify.set({ fuzzyLink: false, fuzzyEmail: true, fuzzyIP: false });
  // No images (no raster content, nothing fetched from elsewhere) and no tables (nothing needs them,
  // and markdown-it aligns cells with inline styles, which the CSP refuses).
  md.disable(["image", "table"]);
  md.validateLink = isAllowedHref;

  // Heading ids, and the taglines' languages, once the inline content is parsed.
  md.core.ruler.push("ambercare_attributes", (state) => {
    const env = state.env as Partial<RenderEnv>;
    const ids = env.ids ?? new Set<string>();
    env.ids = ids;
    const tokens = state.tokens;
    for (let i = 0; i < tokens.length; i += 1) {
      const token = tokens[i]!;
      if (token.type === "heading_open") {
        if (token.tag === "h1")
          throw new Error("A content page has no '# ' heading: its title (front matter) is the page's h1");
        token.attrSet("id", uniqueId(slugify(inlineText(tokens[i + 1]), env.locale ?? "en"), ids));
      }
      if (token.type === "list_item_open") {
        const inline = tokens[i + 2];
        const children = (inline?.type === "inline" ? (inline.children ?? []) : []).filter(
          (child) => !(child.type === "text" && child.content === ""),
        );
        if (children[0]?.type === "strong_open" && children[2]?.type === "strong_close") {
          const label = (children[1]?.content ?? "").replace(/[:：]\s*$/, "").trim();
          const language = TAGLINE_LANGUAGES[label];
          if (language) {
            token.attrSet("lang", language.lang);
            if (language.rtl) token.attrSet("dir", "rtl");
          }
        }
      }
    }
  });

  const renderToken = md.renderer.renderToken.bind(md.renderer);
  md.renderer.rules.link_open = (tokens, idx, options) => {
    const token = tokens[idx]!;
    const href = String(token.attrGet("href") ?? "");
    if (isExternalHref(href)) token.attrSet("rel", "noopener noreferrer");
    return renderToken(tokens, idx, options);
  };
  markdownCache.set(locale, md);
  return md;
}

// ---------------------------------------------------------------------------------------------
// The allow-list check of the output

const ALLOWED_ATTRIBUTES: Readonly<Record<string, readonly string[]>> = Object.freeze({
  p: [],
  h2: ["id"],
  h3: ["id"],
  h4: ["id"],
  h5: ["id"],
  h6: ["id"],
  ul: [],
  ol: ["start"],
  li: ["lang", "dir"],
  a: ["href", "rel", "title"],
  strong: [],
  em: [],
  s: [],
  code: ["class"],
  pre: [],
  blockquote: [],
  hr: [],
  br: [],
});

const TAG = /^<(\/?)([a-z][a-z0-9]*)((?:\s+[a-z-]+="[^"<>]*")*)\s*(\/?)>/;
const ATTRIBUTE = /\s+([a-z-]+)="([^"<>]*)"/g;

function decodeAttribute(value: string): string {
  return value
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&#(\d+);/g, (_m, code: string) => String.fromCodePoint(Number(code)))
    .replace(/&amp;/g, "&");
}

function checkAttribute(tag: string, name: string, value: string): string | null {
  if (!(ALLOWED_ATTRIBUTES[tag] ?? []).includes(name)) return `attribute ${name} on <${tag}>`;
  const decoded = decodeAttribute(value);
  if (name === "href" && !isAllowedHref(decoded)) return `link ${decoded}`;
  if (name === "rel" && decoded !== "noopener noreferrer") return `rel ${decoded}`;
  if (name === "lang" && !TAGLINE_LANG_TAGS.has(decoded)) return `lang ${decoded}`;
  if (name === "dir" && decoded !== "rtl") return `dir ${decoded}`;
  if (name === "id" && !/^[\p{L}\p{N}-]+$/u.test(decoded)) return `id ${decoded}`;
  if (name === "start" && !/^\d+$/.test(decoded)) return `start ${decoded}`;
  if (name === "class" && !/^language-[\w-]+$/.test(decoded)) return `class ${decoded}`;
  return null;
}

/**
 * Throws unless every tag of `html` is on the allow-list with allowed attributes and values. Text
 * never contains a raw `<` (markdown-it escapes it), so every `<` must open an allowed tag.
 */
export function assertSafeHtml(html: string): void {
  for (let at = html.indexOf("<"); at !== -1; at = html.indexOf("<", at + 1)) {
    const match = TAG.exec(html.slice(at));
    const problem = (() => {
      if (!match) return `markup ${html.slice(at, at + 40)}`;
      const [, closing, tag = "", attributes = ""] = match;
      if (!Object.hasOwn(ALLOWED_ATTRIBUTES, tag)) return `tag <${tag}>`;
      if (closing && attributes.trim() !== "") return `attributes on </${tag}>`;
      for (const [, name = "", value = ""] of attributes.matchAll(ATTRIBUTE)) {
        const bad = checkAttribute(tag, name, value);
        if (bad) return bad;
      }
      return null;
    })();
    if (problem) throw new Error(`Unsafe HTML in rendered content: ${problem}`);
  }
}

/** Renders Markdown to sanitised HTML (no front matter, no sections): the whole body at once. */
export function renderMarkdown(source: string, locale: Locale = "en"): string {
  const md = createMarkdown(locale);
  const env: RenderEnv = { locale, ids: new Set() };
  const html = md.render(source, env);
  assertSafeHtml(html);
  return html;
}

// ---------------------------------------------------------------------------------------------
// Front matter

export const frontMatterSchema = z
  .object({
    title: z.string().trim().min(1),
    description: z.string().trim().min(50).max(300),
    effective: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, "a date written YYYY-MM-DD")
      .refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)), "a real date")
      .optional(),
    location: z.string().trim().min(1).optional(),
    type: z.enum(OPENING_TYPES).optional(),
  })
  .strict();

const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

/**
 * Splits `---` front matter from the body. The YAML core schema keeps `effective: 2026-11-22` a
 * string (YAML 1.1 timestamps would make it a Date).
 */
export function parseFrontMatter(raw: string, file = "content"): { data: ContentFrontMatter; body: string } {
  const match = FRONT_MATTER.exec(raw);
  if (!match) throw new Error(`${file}: front matter (--- title, description ---) is missing`);
  const yaml: unknown = parseYaml(match[1] ?? "", { schema: "core" });
  const result = frontMatterSchema.safeParse(yaml);
  if (!result.success) {
    const issues = result.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
    throw new Error(`${file}: invalid front matter: ${issues.join("; ")}`);
  }
  return { data: result.data, body: raw.slice(match[0].length) };
}

// ---------------------------------------------------------------------------------------------
// Documents

export type DocumentOptions = {
  slug: string;
  locale: Locale;
  /** The FAQ: every `###` of a section is a question with its answer. */
  questions?: boolean;
  /** The careers page: a list whose every item links to /careers/<slug> becomes the openings slot. */
  openingsSlot?: boolean;
  /** For error messages. */
  file?: string;
};

/** Index just past the block that opens at `start` (its matching close at the same level). */
function blockEnd(tokens: readonly Token[], start: number): number {
  const open = tokens[start]!;
  if (open.nesting !== 1) return start + 1;
  for (let i = start + 1; i < tokens.length; i += 1) {
    const token = tokens[i]!;
    if (token.level === open.level && token.nesting === -1) return i + 1;
  }
  return tokens.length;
}

function isOpeningsList(tokens: readonly Token[]): boolean {
  let items = 0;
  let linked = 0;
  for (const [i, token] of tokens.entries()) {
    if (token.type === "list_item_open" && token.level === 1) {
      items += 1;
      const end = blockEnd(tokens, i);
      const links = tokens
        .slice(i, end)
        .flatMap((t) => t.children ?? [])
        .filter((child) => child.type === "link_open");
      if (links.some((link) => /^\/careers\/[a-z0-9-]+$/.test(String(link.attrGet("href"))))) linked += 1;
    }
  }
  return items > 0 && items === linked;
}

/** The top-level indexes of headings of one level. */
function headingIndexes(tokens: readonly Token[], tag: string): number[] {
  return tokens.flatMap((token, i) =>
    token.type === "heading_open" && token.tag === tag && token.level === 0 ? [i] : [],
  );
}

/**
 * Renders one content file (front matter + Markdown) into its title, description, intro and
 * sections of sanitised HTML. Throws with the file name on anything wrong: a broken page fails the
 * build rather than the visit.
 */
export function renderContentDocument(raw: string, options: DocumentOptions): ContentDocument {
  const file = options.file ?? options.slug;
  const { data, body } = parseFrontMatter(raw, file);
  const md = createMarkdown(options.locale);
  const env: RenderEnv = { locale: options.locale, ids: new Set() };
  let tokens: Token[];
  try {
    tokens = md.parse(body, env);
  } catch (error) {
    throw new Error(`${file}: ${(error as Error).message}`);
  }
  const render = (slice: readonly Token[]): string => {
    const html = md.renderer.render([...slice], md.options, env).trim();
    try {
      assertSafeHtml(html);
    } catch (error) {
      throw new Error(`${file}: ${(error as Error).message}`);
    }
    return html;
  };
  const chunks = (slice: readonly Token[]): ContentChunk[] => {
    const result: ContentChunk[] = [];
    let from = 0;
    for (let i = 0; i < slice.length; i += 1) {
      const token = slice[i]!;
      if (!options.openingsSlot || token.type !== "bullet_list_open" || token.level !== 0) continue;
      const end = blockEnd(slice, i);
      if (!isOpeningsList(slice.slice(i, end))) continue;
      result.push({ html: render(slice.slice(from, i)) }, { slot: "openings" });
      from = end;
      i = end - 1;
    }
    result.push({ html: render(slice.slice(from)) });
    return result.filter((chunk) => !("html" in chunk) || chunk.html !== "");
  };

  const h2s = headingIndexes(tokens, "h2");
  const sections: ContentSection[] = h2s.map((start, n) => {
    const end = h2s[n + 1] ?? tokens.length;
    const heading = tokens[start]!;
    const bodyTokens = tokens.slice(start + 3, end);
    let questions: ContentQuestion[] = [];
    let intro = bodyTokens;
    if (options.questions) {
      const h3s = headingIndexes(bodyTokens, "h3");
      intro = bodyTokens.slice(0, h3s[0] ?? bodyTokens.length);
      questions = h3s.map((q, k) => {
        const answer = bodyTokens.slice(q + 3, h3s[k + 1] ?? bodyTokens.length);
        return {
          id: String(bodyTokens[q]!.attrGet("id")),
          question: inlineText(bodyTokens[q + 1]),
          html: render(answer),
          text: tokensText(answer),
        };
      });
    }
    return {
      id: String(heading.attrGet("id")),
      title: inlineText(tokens[start + 1]),
      body: chunks(intro),
      questions,
    };
  });
  return {
    ...data,
    slug: options.slug,
    intro: render(tokens.slice(0, h2s[0] ?? tokens.length)),
    sections,
  };
}
