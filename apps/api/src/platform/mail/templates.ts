import type { Locale } from "@ambercare/contracts/locales";
import { greeting, type MailKey, mailT } from "#api/platform/mail/mail-copy.ts";

/**
 * The account e-mails (password, two-step login, sign-up, welcome, clinician invitation) and the
 * HTML frame every e-mail of the API shares. Each has a subject, a plain-text part (what screen
 * readers and text-only clients show) and a simple HTML part: one column, real text (no images), a
 * visible link text, `lang` set, enough contrast. Their words are in the catalogue (mail-copy.ts);
 * this file says which strings each e-mail shows, in which order.
 */

export type MailTemplate =
  | "password-reset"
  | "password-changed"
  | "welcome"
  | "second-factor-reset"
  | "second-factor-off"
  | "sign-up-confirmation"
  | "sign-up-attempt"
  | "clinician-invite"
  | "operator-invite";

export type MailVars = {
  productName: string;
  /** Greets by first name when known. */
  firstName: string | null;
  /** The one link of the message. */
  link: string;
};

export type RenderedMail = { subject: string; text: string; html: string };

/** Which strings of the catalogue (mail-copy.ts) make each e-mail, in the order they are shown. */
type Layout = {
  subject: MailKey;
  /** Paragraphs before the button. */
  intro: MailKey[];
  /** The button's label, also the line before the link in the plain text. */
  action: MailKey;
  /** Paragraphs after the link. */
  outro: MailKey[];
};

const LAYOUTS: Record<MailTemplate, Layout> = {
  "clinician-invite": {
    subject: "account.clinicianInvite.subject",
    intro: ["account.clinicianInvite.invited", "account.clinicianInvite.start"],
    action: "account.clinicianInvite.action",
    outro: ["account.clinicianInvite.onlyOnce", "account.clinicianInvite.notExpected"],
  },
  "operator-invite": {
    subject: "account.operatorInvite.subject",
    intro: ["account.operatorInvite.invited", "account.operatorInvite.start"],
    action: "account.operatorInvite.action",
    outro: ["account.operatorInvite.onlyOnce", "account.operatorInvite.notExpected"],
  },
  "password-reset": {
    subject: "account.passwordReset.subject",
    intro: ["account.passwordReset.request"],
    action: "account.passwordReset.action",
    outro: ["account.passwordReset.onlyOnce", "account.passwordReset.notYou"],
  },
  "password-changed": {
    subject: "account.passwordChanged.subject",
    intro: ["account.passwordChanged.changed"],
    action: "account.passwordChanged.action",
    outro: ["account.passwordChanged.ifYou", "account.passwordChanged.ifNotYou"],
  },
  "second-factor-reset": {
    subject: "account.secondFactorReset.subject",
    intro: ["account.secondFactorReset.request"],
    action: "account.secondFactorReset.action",
    outro: ["account.secondFactorReset.onlyOnce", "account.secondFactorReset.notYou"],
  },
  "second-factor-off": {
    subject: "account.secondFactorOff.subject",
    intro: ["account.secondFactorOff.turnedOff"],
    action: "account.secondFactorOff.action",
    outro: ["account.secondFactorOff.ifYou", "account.secondFactorOff.ifNotYou"],
  },
  welcome: {
    subject: "account.welcome.subject",
    intro: ["account.welcome.ready"],
    action: "account.welcome.action",
    outro: ["account.welcome.notYou"],
  },
  "sign-up-confirmation": {
    subject: "account.signUpConfirmation.subject",
    intro: ["account.signUpConfirmation.thanks"],
    action: "account.signUpConfirmation.action",
    outro: ["account.signUpConfirmation.onlyOnce", "account.signUpConfirmation.notYou"],
  },
  "sign-up-attempt": {
    subject: "account.signUpAttempt.subject",
    intro: ["account.signUpAttempt.attempt"],
    action: "account.signUpAttempt.action",
    outro: ["account.signUpAttempt.ifYou", "account.signUpAttempt.ifNotYou"],
  },
};

export function renderMail(template: MailTemplate, locale: Locale, vars: MailVars): RenderedMail {
  const layout = LAYOUTS[template];
  const t = mailT(locale, { productName: vars.productName });
  const subject = t(layout.subject);
  const hello = greeting(t, vars.firstName);
  const intro = layout.intro.map((key) => t(key));
  const action = t(layout.action);
  const outro = layout.outro.map((key) => t(key));
  const signature = `— ${t("common.signature")}`;
  const text = [hello, ...intro, `${action}:\n${vars.link}`, ...outro, signature].join("\n\n");
  const p = (line: string) => `<p style="margin:0 0 16px">${escapeHtml(line)}</p>`;
  const html = htmlMailDocument(locale, subject, [
    p(hello),
    ...intro.map(p),
    ...mailButton(action, vars.link, t("common.copyHint")),
    ...outro.map(p),
    p(signature),
  ]);
  return { subject, text: `${text}\n`, html };
}

/** The HTML part of every e-mail: one column of `body` (HTML lines), `lang` set, the subject as title. */
export function htmlMailDocument(locale: Locale, subject: string, body: string[]): string {
  return [
    "<!doctype html>",
    `<html lang="${locale}">`,
    "<head>",
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(subject)}</title>`,
    "</head>",
    '<body style="margin:0;padding:24px;background:#ffffff;color:#1f2933;font-family:Arial,Helvetica,sans-serif;font-size:16px;line-height:1.5">',
    '<div style="max-width:560px">',
    ...body,
    "</div>",
    "</body>",
    "</html>",
    "",
  ].join("\n");
}

/** A message's one button, then its address to copy for mail readers that drop links. */
export function mailButton(label: string, link: string, copyHint: string): string[] {
  const href = escapeHtml(link);
  // Dark amber on white (contrast 7:1): the brand orange #F59825 is too light for white text.
  return [
    `<p style="margin:24px 0"><a href="${href}" style="display:inline-block;padding:12px 20px;` +
      `background:#92400e;color:#ffffff;text-decoration:underline;border-radius:6px;font-weight:bold">` +
      `${escapeHtml(label)}</a></p>`,
    `<p style="margin:0 0 16px">${escapeHtml(copyHint)}<br><a href="${href}" style="color:#92400e;word-break:break-all">${href}</a></p>`,
  ];
}

export function escapeHtml(text: string): string {
  return text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
}
