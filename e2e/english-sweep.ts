import bg from "../apps/web/app/locales/bg.json" with { type: "json" };
import en from "../apps/web/app/locales/en.json" with { type: "json" };

/**
 * Finds English in a page served in Bulgarian, from its HTML: the server's, or the document a
 * browser has rendered (`page.content()` once hydrated): the English of a string whose Bulgarian
 * differs, and hard-coded English written in the page's code (runs of Latin words, common English
 * ones among them). Free of the test runner.
 */

/** Elements whose text a visitor never sees. */
const HIDDEN_ELEMENTS = /<(script|style|template|noscript)\b[^>]*>[\s\S]*?<\/\1>/gi;
/** Elements that run inside a line of text: a tag of theirs does not end the text around it. */
const INLINE_TAG = /<\/?(?:a|abbr|b|code|em|i|kbd|mark|q|s|small|span|strong|sub|sup|time|u)\b[^>]*>/gi;
/** Attributes a visitor sees or hears, in any element. */
const SHOWN_ATTRIBUTES = /\s(?:title|aria-label|placeholder|alt)="([^"]*)"/gi;
/** A button's label given as its value (`<input type="submit" value="…">`). */
const BUTTON_INPUT = /<input\b[^>]*\btype="(?:submit|button|reset)"[^>]*>/gi;

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };
function decode(text: string): string {
  return text.replace(/&(#x[\da-f]+|#\d+|\w+);/gi, (entity, name: string) => {
    if (name.startsWith("#x") || name.startsWith("#X"))
      return String.fromCodePoint(Number.parseInt(name.slice(2), 16));
    if (name.startsWith("#")) return String.fromCodePoint(Number(name.slice(1)));
    return ENTITIES[name.toLowerCase()] ?? entity;
  });
}

const squash = (text: string) => text.replace(/\s+/g, " ").trim();

/**
 * What a visitor of the page sees or hears of its HTML, one piece per block of text: the text of
 * its elements (the document's title included) and the shown attributes' values.
 */
export function visibleTexts(html: string): string[] {
  const markup = html.replace(/<!--[\s\S]*?-->/g, "").replace(HIDDEN_ELEMENTS, "\n");
  const attributes = [...markup.matchAll(SHOWN_ATTRIBUTES)].map((match) => match[1] ?? "");
  const buttons = [...markup.matchAll(BUTTON_INPUT)].map(
    (match) => /\bvalue="([^"]*)"/i.exec(match[0])?.[1] ?? "",
  );
  const blocks = markup.replace(INLINE_TAG, "").split(/<[^>]*>/);
  return [...blocks, ...attributes, ...buttons].map((text) => squash(decode(text))).filter(Boolean);
}

function flatten(strings: unknown, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(strings as Record<string, unknown>)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === "string") out.set(path, value);
    else for (const [inner, text] of flatten(value, path)) out.set(inner, text);
  }
  return out;
}

const wordCount = (text: string) => text.split(/\s+/).filter((word) => /\p{L}/u.test(word)).length;

/**
 * The English of every string whose Bulgarian differs, in its literal parts (between `{{…}}`
 * placeholders) of two words or more: none may show on a page in Bulgarian.
 */
export const TRANSLATED_ENGLISH: ReadonlyArray<{ key: string; text: string }> = (() => {
  const english = flatten(en);
  const bulgarian = flatten(bg);
  const out: { key: string; text: string }[] = [];
  for (const [key, text] of english) {
    if (bulgarian.get(key) === text) continue;
    for (const part of text.split(/\{\{[^}]*\}\}/)) {
      const literal = squash(part);
      if (wordCount(literal) >= 2) out.push({ key, text: literal });
    }
  }
  return out;
})();

/**
 * Common English words: a run of three Latin-script words or more with two of these in it is an
 * English phrase rather than a name, an address or a code.
 */
const COMMON_ENGLISH = new Set(
  `a about after all an and any are as at be before but by can cannot could did do does done each for from
  get go has have here how i if in into is it its it's just may more most must my new next no not now of on
  one only or our out over please see so some than that the their them then there these they this those to
  up us was we were what when where which who will with without would yet you your you're yours
  visit visits doctor request book care account profile sign log back continue cancel save send view open
  show more less help here try again read learn`.split(/\s+/),
);

export type Finding = { kind: "string" | "phrase"; text: string; key?: string };

/** Legitimately English text on a Bulgarian page, each with why. */
export type Allowed = { text: RegExp; reason: string };

/** Runs of Latin words (letters, apostrophes, hyphens) not broken by Cyrillic, digits or punctuation that ends a phrase. */
function latinRuns(text: string): string[][] {
  const runs: string[][] = [];
  let run: string[] = [];
  for (const token of text.split(/\s+/)) {
    const word = token.replace(/^[("'“‘]+|[)"'”’,:;]+$/g, "");
    if (/^[A-Za-z][A-Za-z'’-]*$/.test(word)) {
      run.push(word);
      // A sentence's end ends the run.
      if (/[.!?]$/.test(token)) {
        runs.push(run);
        run = [];
      }
    } else {
      if (run.length) runs.push(run);
      run = [];
    }
  }
  if (run.length) runs.push(run);
  return runs;
}

/** The English a page in Bulgarian shows, save what `allowed` lets through. */
export function englishIn(html: string, allowed: readonly Allowed[] = []): Finding[] {
  const texts = visibleTexts(html);
  const isAllowed = (text: string) => allowed.some((entry) => entry.text.test(text));
  const findings: Finding[] = [];
  const whole = texts.join("\n");
  for (const { key, text } of TRANSLATED_ENGLISH) {
    if (whole.includes(text) && !isAllowed(text)) findings.push({ kind: "string", key, text });
  }
  for (const text of texts) {
    for (const run of latinRuns(text)) {
      const common = run.filter((word) => COMMON_ENGLISH.has(word.toLowerCase())).length;
      const phrase = run.join(" ");
      if (run.length >= 3 && common >= 2 && !isAllowed(phrase) && !isAllowed(text)) {
        findings.push({ kind: "phrase", text: phrase });
      }
    }
  }
  // One finding per text.
  return findings.filter(
    (finding, index) => findings.findIndex((other) => other.text === finding.text) === index,
  );
}
