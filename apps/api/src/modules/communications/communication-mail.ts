import type { ContactTopic } from "@ambercare/contracts/communications-constants";
import type { Locale } from "@ambercare/contracts/locales";
import {
  type ParagraphMail as Copy,
  renderParagraphMail as render,
} from "#api/platform/mail/paragraph-mail.ts";
import type { RenderedMail } from "#api/platform/mail/templates.ts";

/**
 * The communications e-mails (contact messages, list sign-up, marketing, account deletion), in both
 * languages, in the same plain style as templates.ts: a plain-text part and a one-column HTML part
 * with `lang` set. The support team's notification is in English only: it is read by staff, not by
 * the patient.
 */

export type CommunicationTemplate =
  | "contact-acknowledgement"
  | "contact-notification"
  | "list-confirmation"
  | "list-welcome"
  | "data-deletion";

const TOPIC_LABELS: Record<Locale, Record<ContactTopic, string>> = {
  en: {
    general: "General question",
    consultations: "Consultations",
    membership_billing: "Membership and billing",
    technical: "Technical problem",
    privacy: "Privacy and my data",
    feedback: "Feedback",
  },
  bg: {
    general: "Общ въпрос",
    consultations: "Консултации",
    membership_billing: "Членство и плащания",
    technical: "Технически проблем",
    privacy: "Поверителност и моите данни",
    feedback: "Обратна връзка",
  },
};

type ContactAcknowledgementVars = { productName: string; name: string; topic: ContactTopic; link: string };

const CONTACT_ACKNOWLEDGEMENT: Record<Locale, (vars: ContactAcknowledgementVars, topic: string) => Copy> = {
  en: (vars, topic) => ({
    subject: `We received your message — ${vars.productName}`,
    paragraphs: [
      `Hello ${vars.name},`,
      `Thank you for writing to us (topic: ${topic}). Our team will answer at this address within 2 business days.`,
      "If this is a medical emergency, call 911 or your local emergency number.",
      `The ${vars.productName} team`,
    ],
    action: { label: "Visit the site", link: vars.link },
  }),
  bg: (vars, topic) => ({
    subject: `Получихме съобщението Ви — ${vars.productName}`,
    paragraphs: [
      `Здравейте, ${vars.name},`,
      `Благодарим Ви, че ни писахте (тема: ${topic}). Екипът ни ще Ви отговори на този адрес до 2 работни дни.`,
      "Ако въпросът Ви е спешен медицински случай, обадете се на 911 или на местния спешен номер.",
      `Екипът на ${vars.productName}`,
    ],
    action: { label: "Към сайта", link: vars.link },
  }),
};

export function contactAcknowledgement(locale: Locale, vars: ContactAcknowledgementVars): RenderedMail {
  const topic = TOPIC_LABELS[locale][vars.topic];
  return render(locale, CONTACT_ACKNOWLEDGEMENT[locale](vars, topic));
}

export function contactNotification(vars: {
  productName: string;
  entryId: string;
  name: string;
  email: string;
  topic: ContactTopic;
  segment: string;
  source: string;
  userId: string | null;
  message: string;
}): RenderedMail {
  return render("en", {
    // No name in the subject: subjects reach logs (mailer.ts), and a name is personal data.
    subject: `[${vars.productName} ${vars.segment}] ${TOPIC_LABELS.en[vars.topic]} (${vars.source === "widget" ? "support widget" : "contact form"})`,
    paragraphs: [
      `New ${vars.source === "widget" ? "support widget" : "contact form"} message ${vars.entryId}.`,
      [
        `From: ${vars.name} <${vars.email}>`,
        `Topic: ${TOPIC_LABELS.en[vars.topic]}`,
        `Segment: ${vars.segment}`,
        `Patient account: ${vars.userId ?? "not logged in"}`,
      ].join("\n"),
      vars.message,
      "Reply to this e-mail to answer the sender.",
    ],
  });
}

type ListConfirmationVars = { productName: string; link: string };

const LIST_CONFIRMATION: Record<Locale, (vars: ListConfirmationVars) => Copy> = {
  en: (vars) => ({
    subject: `Confirm your ${vars.productName} subscription`,
    paragraphs: [
      "Hello,",
      `Someone (we hope you) asked for this address to receive ${vars.productName} news. We will send nothing until you confirm. The link works for 7 days.`,
      "If this was not you, ignore this e-mail.",
    ],
    action: { label: "Confirm my subscription", link: vars.link },
  }),
  bg: (vars) => ({
    subject: `Потвърдете абонамента си за ${vars.productName}`,
    paragraphs: [
      "Здравейте,",
      `Някой (надяваме се Вие) поиска този адрес да получава новините на ${vars.productName}. Няма да Ви изпращаме нищо, докато не потвърдите. Връзката е валидна 7 дни.`,
      "Ако не сте били Вие, пренебрегнете това съобщение.",
    ],
    action: { label: "Потвърждавам абонамента", link: vars.link },
  }),
};

export function listConfirmation(locale: Locale, vars: ListConfirmationVars): RenderedMail {
  return render(locale, LIST_CONFIRMATION[locale](vars));
}

type ListWelcomeVars = { productName: string; link: string; unsubscribeLink: string };

const LIST_WELCOME: Record<Locale, (vars: ListWelcomeVars) => Copy> = {
  en: (vars) => ({
    subject: `Welcome to ${vars.productName} news`,
    paragraphs: [
      "Hello,",
      `Your subscription is confirmed. We write rarely: new services, health tips and changes to ${vars.productName}.`,
    ],
    action: { label: "Visit the site", link: vars.link },
    footer: {
      text: "You receive this e-mail because you confirmed your subscription. Unsubscribe with one click:",
      label: "Unsubscribe",
      link: vars.unsubscribeLink,
    },
  }),
  bg: (vars) => ({
    subject: `Добре дошли в новините на ${vars.productName}`,
    paragraphs: [
      "Здравейте,",
      `Абонаментът Ви е потвърден. Ще Ви пишем рядко: нови услуги, съвети за здравето и промени в ${vars.productName}.`,
    ],
    action: { label: "Към сайта", link: vars.link },
    footer: {
      text: "Получавате това писмо, защото потвърдихте абонамента си. Можете да се отпишете с едно щракване:",
      label: "Отписване",
      link: vars.unsubscribeLink,
    },
  }),
};

export function listWelcome(locale: Locale, vars: ListWelcomeVars): RenderedMail {
  return render(locale, LIST_WELCOME[locale](vars));
}

type DataDeletionVars = { productName: string; firstName: string | null; link: string };

const DATA_DELETION: Record<Locale, (vars: DataDeletionVars) => Copy> = {
  en: (vars) => ({
    subject: `Your ${vars.productName} account is closed`,
    paragraphs: [
      vars.firstName ? `Hello ${vars.firstName},` : "Hello,",
      `As you asked, we closed your ${vars.productName} account. Your health data was erased or anonymised, your messages to us were anonymised and your address was removed from our lists.`,
      "We keep only billing records (invoices) for as long as the law requires, without health data.",
      "If you did not ask for this, contact us at once through the contact form.",
    ],
    action: { label: "Visit the site", link: vars.link },
  }),
  bg: (vars) => ({
    subject: `Профилът Ви в ${vars.productName} е закрит`,
    paragraphs: [
      vars.firstName ? `Здравейте, ${vars.firstName},` : "Здравейте,",
      `По Ваше искане закрихме профила Ви в ${vars.productName}. Здравните Ви данни са изтрити или анонимизирани, съобщенията Ви до нас са анонимизирани, а адресът Ви е премахнат от списъците ни.`,
      "Пазим само документите за плащания (фактури), доколкото законът го изисква, без здравни данни.",
      "Ако не сте поискали това, пишете ни незабавно чрез формата за контакт.",
    ],
    action: { label: "Към сайта", link: vars.link },
  }),
};

export function dataDeletion(locale: Locale, vars: DataDeletionVars): RenderedMail {
  return render(locale, DATA_DELETION[locale](vars));
}
