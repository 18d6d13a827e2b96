import type { Locale } from "@ambercare/contracts/locales";
import { mailT } from "#api/platform/mail/mail-copy.ts";
import { escapeHtml, htmlMailDocument, mailButton, type RenderedMail } from "#api/platform/mail/templates.ts";

/**
 * The plain e-mails of the modules (communications, visits, membership): paragraphs, at most one
 * button and an optional footer, rendered as a plain-text part and a one-column HTML part with
 * `lang` set, in the same style as templates.ts. The modules pass the strings already read from the
 * catalogue (mail-copy.ts); this adds only the button's copy hint.
 */

export type ParagraphMail = {
  subject: string;
  paragraphs: string[];
  /** The message's one button, if any. */
  action?: { label: string; link: string };
  /** Small print below a rule (the unsubscribe line of marketing mail). */
  footer?: { text: string; label: string; link: string };
};

export function renderParagraphMail(locale: Locale, copy: ParagraphMail): RenderedMail {
  const textParts = [...copy.paragraphs];
  if (copy.action) textParts.push(`${copy.action.label}:\n${copy.action.link}`);
  if (copy.footer) textParts.push(`--\n${copy.footer.text}\n${copy.footer.link}`);
  const p = (text: string) => `<p style="margin:0 0 16px;white-space:pre-line">${escapeHtml(text)}</p>`;
  const body = copy.paragraphs.map(p);
  if (copy.action) {
    const copyHint = mailT(locale)("common.copyHint");
    body.push(...mailButton(copy.action.label, copy.action.link, copyHint));
  }
  if (copy.footer) {
    body.push(
      `<hr style="border:0;border-top:1px solid #cbd2d9;margin:24px 0">`,
      `<p style="margin:0;font-size:14px;color:#3e4c59">${escapeHtml(copy.footer.text)} <a href="${escapeHtml(copy.footer.link)}" style="color:#92400e">${escapeHtml(copy.footer.label)}</a></p>`,
    );
  }
  return {
    subject: copy.subject,
    text: `${textParts.join("\n\n")}\n`,
    html: htmlMailDocument(locale, copy.subject, body),
  };
}
