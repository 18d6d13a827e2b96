import type { MyDataExport } from "@ambercare/contracts/communications";
import { escapeHtml } from "#app/lib/html.ts";
import { type Locale, lookup, type Translations } from "#app/lib/i18n.tsx";

/**
 * The readable HTML copy of a patient's data export (Washington My Health My Data): one table per
 * section, plain semantic HTML with no script or style, so it opens anywhere and prints well.
 */

function text(translations: Translations, key: string, values: Record<string, string> = {}): string {
  const found = lookup(translations, key) ?? key;
  return found.replace(/\{\{\s*(\w+)\s*\}\}/g, (match, name: string) => values[name] ?? match);
}

function cell(value: string | number | boolean | null): string {
  if (value === null) return "";
  return escapeHtml(String(value));
}

export function exportHtml(
  exported: MyDataExport,
  options: { locale: Locale; translations: Translations; productName: string },
): string {
  const { locale, translations, productName } = options;
  const title = text(translations, "dataRights.file.title", { product: productName });
  const generated = text(translations, "dataRights.file.generated", { date: exported.generated_at });
  const sections = Object.entries(exported.sections).map(([name, rows]) => {
    const heading = escapeHtml(lookup(translations, `dataRights.sections.${name}`) ?? name);
    if (rows.length === 0) {
      return `<section><h2>${heading}</h2><p>${escapeHtml(text(translations, "dataRights.file.empty"))}</p></section>`;
    }
    const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
    const head = columns.map((column) => `<th scope="col">${escapeHtml(column)}</th>`).join("");
    const body = rows
      .map((row) => `<tr>${columns.map((column) => `<td>${cell(row[column] ?? null)}</td>`).join("")}</tr>`)
      .join("\n");
    return `<section><h2>${heading}</h2><table><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table></section>`;
  });
  return [
    "<!doctype html>",
    `<html lang="${locale}">`,
    `<head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>`,
    "<body>",
    `<h1>${escapeHtml(title)}</h1>`,
    `<p>${escapeHtml(generated)}</p>`,
    ...sections,
    "</body>",
    "</html>",
    "",
  ].join("\n");
}
