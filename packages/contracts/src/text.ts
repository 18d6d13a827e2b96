import { z } from "zod";

/**
 * Text a person types (names, addresses, messages, intake answers, search words). PostgreSQL
 * cannot store a NUL character in `text`, and a lone UTF-16 surrogate has no UTF-8 form, so either
 * would fail deep in the database as a server error; both are refused here, at the edge, as a
 * client mistake. The issue's `params.kind` lets the web show its own translated message.
 */
export const UNREADABLE_TEXT_KIND = "unreadableCharacters";
export const UNREADABLE_TEXT_MESSAGE = "must not contain NUL characters or unpaired surrogates";

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True when `value` can be stored and sent as UTF-8 as it is. */
export function isStorableText(value: string): boolean {
  return !value.includes("\0") && !LONE_SURROGATE.test(value);
}

/** A string schema that refuses NUL and lone surrogates; chain `.trim()`, `.min()`, `.max()` on it. */
export function textSchema() {
  return z.string().refine(isStorableText, {
    message: UNREADABLE_TEXT_MESSAGE,
    params: { kind: UNREADABLE_TEXT_KIND },
    abort: true,
  });
}
