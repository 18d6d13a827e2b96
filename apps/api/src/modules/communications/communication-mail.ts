import type { ContactSource, ContactTopic } from "@ambercare/contracts/communications-constants";
import { DEFAULT_LOCALE, type Locale } from "@ambercare/contracts/locales";
import { greeting, mailT } from "#api/platform/mail/mail-copy.ts";
import { renderParagraphMail as render } from "#api/platform/mail/paragraph-mail.ts";
import type { RenderedMail } from "#api/platform/mail/templates.ts";

/**
 * The communications e-mails (contact messages, list sign-up, marketing, account deletion), in the
 * recipient's language, in the same plain style as templates.ts: a plain-text part and a one-column
 * HTML part with `lang` set. Their words are in the e-mail catalogue (mail-copy.ts). The support
 * team's notification is in English: it is read by staff, not by the patient.
 */

export type CommunicationTemplate =
  | "contact-acknowledgement"
  | "contact-notification"
  | "list-confirmation"
  | "list-welcome"
  | "data-deletion";

/** The language of the support team's notifications. */
const STAFF_LOCALE: Locale = DEFAULT_LOCALE;

type ContactAcknowledgementVars = { productName: string; name: string; topic: ContactTopic; link: string };

export function contactAcknowledgement(locale: Locale, vars: ContactAcknowledgementVars): RenderedMail {
  const t = mailT(locale, { productName: vars.productName });
  return render(locale, {
    subject: t("contact.acknowledgement.subject"),
    paragraphs: [
      // The name is required by the contact form, so there is no nameless greeting here.
      t("common.greeting", { firstName: vars.name }),
      t("contact.acknowledgement.thanks", { topic: t(`contact.topics.${vars.topic}`) }),
      t("common.emergency"),
      t("common.signature"),
    ],
    action: { label: t("common.visitSite"), link: vars.link },
  });
}

export function contactNotification(vars: {
  productName: string;
  entryId: string;
  name: string;
  email: string;
  topic: ContactTopic;
  segment: string;
  source: ContactSource;
  userId: string | null;
  message: string;
}): RenderedMail {
  const t = mailT(STAFF_LOCALE, { productName: vars.productName, segment: vars.segment });
  const topic = t(`contact.topics.${vars.topic}`);
  const source = t(`contact.notification.sources.${vars.source}`);
  return render(STAFF_LOCALE, {
    // No name in the subject: subjects reach logs (mailer.ts), and a name is personal data.
    subject: t("contact.notification.subject", { topic, source }),
    paragraphs: [
      t("contact.notification.new", { source, entryId: vars.entryId }),
      [
        t("contact.notification.from", { name: vars.name, email: vars.email }),
        t("contact.notification.topic", { topic }),
        t("contact.notification.segment"),
        t("contact.notification.account", {
          account: vars.userId ?? t("contact.notification.notLoggedIn"),
        }),
      ].join("\n"),
      vars.message,
      t("contact.notification.reply"),
    ],
  });
}

type ListConfirmationVars = { productName: string; link: string };

export function listConfirmation(locale: Locale, vars: ListConfirmationVars): RenderedMail {
  const t = mailT(locale, { productName: vars.productName });
  return render(locale, {
    subject: t("list.confirmation.subject"),
    paragraphs: [greeting(t, null), t("list.confirmation.request"), t("list.confirmation.notYou")],
    action: { label: t("list.confirmation.action"), link: vars.link },
  });
}

type ListWelcomeVars = { productName: string; link: string; unsubscribeLink: string };

export function listWelcome(locale: Locale, vars: ListWelcomeVars): RenderedMail {
  const t = mailT(locale, { productName: vars.productName });
  return render(locale, {
    subject: t("list.welcome.subject"),
    paragraphs: [greeting(t, null), t("list.welcome.confirmed")],
    action: { label: t("common.visitSite"), link: vars.link },
    footer: {
      text: t("list.welcome.whyYouReceiveThis"),
      label: t("list.welcome.unsubscribe"),
      link: vars.unsubscribeLink,
    },
  });
}

type DataDeletionVars = { productName: string; firstName: string | null; link: string };

export function dataDeletion(locale: Locale, vars: DataDeletionVars): RenderedMail {
  const t = mailT(locale, { productName: vars.productName });
  return render(locale, {
    subject: t("dataDeletion.subject"),
    paragraphs: [
      greeting(t, vars.firstName),
      t("dataDeletion.closed"),
      t("dataDeletion.billingRecords"),
      t("dataDeletion.notYou"),
    ],
    action: { label: t("common.visitSite"), link: vars.link },
  });
}
