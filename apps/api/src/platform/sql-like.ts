/**
 * A search box's text as a LIKE pattern's literal part: `%`, `_` and `\` typed by a person are the
 * characters themselves, not wildcards (PostgreSQL's default escape character is `\`).
 */
export function escapeLike(text: string): string {
  return text.replaceAll(/[\\%_]/g, (c) => `\\${c}`);
}
