import type { Locale } from "@ambercare/contracts/locales";

/**
 * The e-mails the API sends, in both languages (English by default, Bulgarian complete). Each has a
 * subject, a plain-text part (what screen readers and text-only clients show) and a simple HTML
 * part: one column, real text (no images), a visible link text, `lang` set, enough contrast.
 */

export type MailTemplate =
  | "password-reset"
  | "password-changed"
  | "welcome"
  | "second-factor-reset"
  | "second-factor-off"
  | "sign-up-confirmation"
  | "sign-up-attempt"
  | "clinician-invite";

export type MailVars = {
  productName: string;
  /** Greets by first name when known. */
  firstName: string | null;
  /** The one link of the message. */
  link: string;
};

export type RenderedMail = { subject: string; text: string; html: string };

type Copy = {
  subject: string;
  greeting: string;
  /** Paragraphs before the link. */
  intro: string[];
  action: string;
  /** "Or copy this address into your browser:" */
  copyHint: string;
  /** Paragraphs after the link. */
  outro: string[];
  signature: string;
};

type Translate = (vars: MailVars) => Copy;

const TEMPLATES: Record<MailTemplate, Record<Locale, Translate>> = {
  "clinician-invite": {
    en: ({ productName, firstName }) => ({
      subject: `Your ${productName} care team account`,
      greeting: firstName ? `Hello ${firstName},` : "Hello,",
      intro: [
        `You have been invited to the ${productName} care team. Your account opens the care console, where you see and take your patients' visits.`,
        "To start, choose your password with the link below within 3 days. You will then set up two-step login with an authenticator app: every clinician account needs it.",
      ],
      action: "Choose your password",
      copyHint: "If the button does not work, copy this address into your browser:",
      outro: [
        "The link works only once. If it has expired, ask the person who invited you for a new one.",
        "If you did not expect this invitation, you can ignore this e-mail.",
      ],
      signature: `The ${productName} team`,
    }),
    bg: ({ productName, firstName }) => ({
      subject: `Вашият профил в медицинския екип на ${productName}`,
      greeting: firstName ? `Здравейте, ${firstName},` : "Здравейте,",
      intro: [
        `Поканени сте в медицинския екип на ${productName}. Профилът Ви отваря конзолата за грижа, където виждате и поемате консултациите на пациентите си.`,
        "За начало изберете парола чрез връзката по-долу в рамките на 3 дни. След това ще настроите влизане в две стъпки с приложение за удостоверяване: всеки профил на лекар го изисква.",
      ],
      action: "Изберете парола",
      copyHint: "Ако бутонът не работи, копирайте този адрес в браузъра си:",
      outro: [
        "Връзката може да се използва само веднъж. Ако е изтекла, поискайте нова от човека, който Ви е поканил.",
        "Ако не сте очаквали тази покана, не е нужно да правите нищо.",
      ],
      signature: `Екипът на ${productName}`,
    }),
  },
  "password-reset": {
    en: ({ productName, firstName }) => ({
      subject: `Reset your ${productName} password`,
      greeting: firstName ? `Hello ${firstName},` : "Hello,",
      intro: [
        `We received a request to reset the password of your ${productName} account. To choose a new password, open the link below within 1 hour.`,
      ],
      action: "Choose a new password",
      copyHint: "If the button does not work, copy this address into your browser:",
      outro: [
        "The link works only once.",
        "If you did not ask for this, you can ignore this e-mail: your password stays the same.",
      ],
      signature: `The ${productName} team`,
    }),
    bg: ({ productName, firstName }) => ({
      subject: `Смяна на паролата за ${productName}`,
      greeting: firstName ? `Здравейте, ${firstName},` : "Здравейте,",
      intro: [
        `Получихме заявка за смяна на паролата на профила Ви в ${productName}. За да изберете нова парола, отворете връзката по-долу в рамките на 1 час.`,
      ],
      action: "Изберете нова парола",
      copyHint: "Ако бутонът не работи, копирайте този адрес в браузъра си:",
      outro: [
        "Връзката може да се използва само веднъж.",
        "Ако не сте поискали смяна на паролата, не е нужно да правите нищо: паролата Ви остава същата.",
      ],
      signature: `Екипът на ${productName}`,
    }),
  },
  "password-changed": {
    en: ({ productName, firstName }) => ({
      subject: `Your ${productName} password was changed`,
      greeting: firstName ? `Hello ${firstName},` : "Hello,",
      intro: [
        `The password of your ${productName} account was just changed. Every other device signed in to your account has been signed out.`,
      ],
      action: "Reset your password",
      copyHint: "If the button does not work, copy this address into your browser:",
      outro: [
        "If you changed it, there is nothing to do.",
        "If you did not, reset your password now with the link above and contact us.",
      ],
      signature: `The ${productName} team`,
    }),
    bg: ({ productName, firstName }) => ({
      subject: `Паролата Ви за ${productName} е сменена`,
      greeting: firstName ? `Здравейте, ${firstName},` : "Здравейте,",
      intro: [
        `Паролата на профила Ви в ${productName} току-що беше сменена. Всички други устройства, влезли в профила Ви, са изведени от него.`,
      ],
      action: "Нова парола",
      copyHint: "Ако бутонът не работи, копирайте този адрес в браузъра си:",
      outro: [
        "Ако Вие сте я сменили, не е нужно да правите нищо.",
        "Ако не сте, сменете паролата си веднага чрез връзката по-горе и се свържете с нас.",
      ],
      signature: `Екипът на ${productName}`,
    }),
  },
  "second-factor-reset": {
    en: ({ productName, firstName }) => ({
      subject: `Turn off two-step login for ${productName}`,
      greeting: firstName ? `Hello ${firstName},` : "Hello,",
      intro: [
        `Someone who knows your password asked to turn off two-step login for your ${productName} account because the authenticator device was lost. To turn it off, open the link below within 30 minutes and enter your password again.`,
      ],
      action: "Turn off two-step login",
      copyHint: "If the button does not work, copy this address into your browser:",
      outro: [
        "The link works only once.",
        "If you did not ask for this, someone may know your password: ignore this e-mail and change your password.",
      ],
      signature: `The ${productName} team`,
    }),
    bg: ({ productName, firstName }) => ({
      subject: `Изключване на влизането в две стъпки за ${productName}`,
      greeting: firstName ? `Здравейте, ${firstName},` : "Здравейте,",
      intro: [
        `Някой, който знае паролата Ви, поиска да изключи влизането в две стъпки за профила Ви в ${productName}, защото устройството за кодове е изгубено. За да го изключите, отворете връзката по-долу в рамките на 30 минути и въведете паролата си отново.`,
      ],
      action: "Изключете влизането в две стъпки",
      copyHint: "Ако бутонът не работи, копирайте този адрес в браузъра си:",
      outro: [
        "Връзката може да се използва само веднъж.",
        "Ако не сте поискали това, някой може да знае паролата Ви: пренебрегнете това съобщение и сменете паролата си.",
      ],
      signature: `Екипът на ${productName}`,
    }),
  },
  "second-factor-off": {
    en: ({ productName, firstName }) => ({
      subject: `Two-step login was turned off for ${productName}`,
      greeting: firstName ? `Hello ${firstName},` : "Hello,",
      intro: [
        `Two-step login was just turned off for your ${productName} account. Logging in now needs only your password. You can turn it on again in your profile, under Security.`,
      ],
      action: "Reset your password",
      copyHint: "If the button does not work, copy this address into your browser:",
      outro: [
        "If you turned it off, there is nothing to do.",
        "If you did not, reset your password now with the link above and contact us.",
      ],
      signature: `The ${productName} team`,
    }),
    bg: ({ productName, firstName }) => ({
      subject: `Влизането в две стъпки за ${productName} е изключено`,
      greeting: firstName ? `Здравейте, ${firstName},` : "Здравейте,",
      intro: [
        `Влизането в две стъпки за профила Ви в ${productName} току-що беше изключено. Сега за вход е нужна само паролата Ви. Можете да го включите отново от профила си, в раздел „Сигурност“.`,
      ],
      action: "Нова парола",
      copyHint: "Ако бутонът не работи, копирайте този адрес в браузъра си:",
      outro: [
        "Ако Вие сте го изключили, не е нужно да правите нищо.",
        "Ако не сте, сменете паролата си веднага чрез връзката по-горе и се свържете с нас.",
      ],
      signature: `Екипът на ${productName}`,
    }),
  },
  welcome: {
    en: ({ productName, firstName }) => ({
      subject: `Welcome to ${productName}`,
      greeting: firstName ? `Hello ${firstName},` : "Hello,",
      intro: [
        `Your ${productName} account is ready. Complete your profile so a doctor can see you, then request your first chat or video consultation.`,
      ],
      action: "Complete your profile",
      copyHint: "If the button does not work, copy this address into your browser:",
      outro: ["If you did not create this account, you can ignore this e-mail."],
      signature: `The ${productName} team`,
    }),
    bg: ({ productName, firstName }) => ({
      subject: `Добре дошли в ${productName}`,
      greeting: firstName ? `Здравейте, ${firstName},` : "Здравейте,",
      intro: [
        `Профилът Ви в ${productName} е готов. Попълнете данните си, за да може лекар да Ви прегледа, и заявете първата си консултация по чат или видео.`,
      ],
      action: "Попълнете профила си",
      copyHint: "Ако бутонът не работи, копирайте този адрес в браузъра си:",
      outro: ["Ако не сте създавали този профил, можете да пренебрегнете това съобщение."],
      signature: `Екипът на ${productName}`,
    }),
  },
  "sign-up-confirmation": {
    en: ({ productName, firstName }) => ({
      subject: `Confirm your e-mail address for ${productName}`,
      greeting: firstName ? `Hello ${firstName},` : "Hello,",
      intro: [
        `Thank you for signing up for ${productName}. To finish, confirm that this e-mail address is yours by opening the link below within 24 hours.`,
      ],
      action: "Confirm my e-mail address",
      copyHint: "If the button does not work, copy this address into your browser:",
      outro: [
        "The link works only once. If it has expired, log in with your e-mail and password to get a new one.",
        "If you did not sign up, ignore this e-mail and do not open the link: no account is used until the address is confirmed.",
      ],
      signature: `The ${productName} team`,
    }),
    bg: ({ productName, firstName }) => ({
      subject: `Потвърдете имейл адреса си за ${productName}`,
      greeting: firstName ? `Здравейте, ${firstName},` : "Здравейте,",
      intro: [
        `Благодарим Ви, че се регистрирахте в ${productName}. За да завършите, потвърдете, че този имейл адрес е Ваш, като отворите връзката по-долу в рамките на 24 часа.`,
      ],
      action: "Потвърждавам имейл адреса си",
      copyHint: "Ако бутонът не работи, копирайте този адрес в браузъра си:",
      outro: [
        "Връзката може да се използва само веднъж. Ако е изтекла, влезте с имейла и паролата си, за да получите нова.",
        "Ако не сте се регистрирали, пренебрегнете това съобщение и не отваряйте връзката: профилът не се използва, докато адресът не бъде потвърден.",
      ],
      signature: `Екипът на ${productName}`,
    }),
  },
  "sign-up-attempt": {
    en: ({ productName, firstName }) => ({
      subject: `Someone tried to sign up for ${productName} with your e-mail address`,
      greeting: firstName ? `Hello ${firstName},` : "Hello,",
      intro: [
        `Someone just tried to create a ${productName} account with this e-mail address. You already have an account, so nothing was changed.`,
      ],
      action: "Log in",
      copyHint: "If the button does not work, copy this address into your browser:",
      outro: [
        "If it was you, log in with your password. Forgot it? Choose “Forgot your password?” on the login page to reset it.",
        "If it was not you, you can ignore this e-mail: your account and your password stay the same.",
      ],
      signature: `The ${productName} team`,
    }),
    bg: ({ productName, firstName }) => ({
      subject: `Някой опита да се регистрира в ${productName} с Вашия имейл адрес`,
      greeting: firstName ? `Здравейте, ${firstName},` : "Здравейте,",
      intro: [
        `Някой току-що опита да създаде профил в ${productName} с този имейл адрес. Вие вече имате профил, затова нищо не е променено.`,
      ],
      action: "Вход",
      copyHint: "Ако бутонът не работи, копирайте този адрес в браузъра си:",
      outro: [
        "Ако сте били Вие, влезте с паролата си. Забравили сте я? Изберете „Забравена парола?“ на страницата за вход, за да я смените.",
        "Ако не сте били Вие, можете да пренебрегнете това съобщение: профилът и паролата Ви остават същите.",
      ],
      signature: `Екипът на ${productName}`,
    }),
  },
};

export function renderMail(template: MailTemplate, locale: Locale, vars: MailVars): RenderedMail {
  const copy = TEMPLATES[template][locale](vars);
  const text = [
    copy.greeting,
    ...copy.intro,
    `${copy.action}:\n${vars.link}`,
    ...copy.outro,
    `— ${copy.signature}`,
  ].join("\n\n");
  return { subject: copy.subject, text: `${text}\n`, html: renderHtml(copy, locale, vars.link) };
}

function renderHtml(copy: Copy, locale: Locale, link: string): string {
  const p = (text: string) => `<p style="margin:0 0 16px">${escapeHtml(text)}</p>`;
  return htmlMailDocument(locale, copy.subject, [
    p(copy.greeting),
    ...copy.intro.map(p),
    ...mailButton(copy.action, link, copy.copyHint),
    ...copy.outro.map(p),
    p(`— ${copy.signature}`),
  ]);
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
