import { CONTACT_TOPICS, type ContactTopic } from "@ambercare/contracts/communications-constants";
import type { FieldErrors, FormMessage, IssueLike } from "#app/lib/forms.ts";
import type { TranslationKey } from "#app/lib/i18n.tsx";

/**
 * The fields of the communication forms (input names, the API's snake_case) in form order, and
 * their messages. Plain data for the pages; the schemas are in communication-forms.server.ts so zod
 * stays out of the browser bundle.
 */
export const CONTACT_FIELDS = ["name", "email", "topic", "message"] as const;
export type ContactField = (typeof CONTACT_FIELDS)[number];

export const SUPPORT_FIELDS = ["message", "email"] as const;
export type SupportField = (typeof SUPPORT_FIELDS)[number];

/**
 * What the support widget's action (routes/support-message.ts, a resource route) answers once sent.
 * Named here, beside the fields the widget imports, so that every page's strings, which the widget
 * shows on, include them (ADR 042 finds a page's strings in the modules it imports).
 */
export const SUPPORT_SENT_KEYS = {
  visitor: "supportWidget.sent",
  patient: "supportWidget.sentPatient",
} as const;

export const SUBSCRIBE_FIELDS = ["email"] as const;
export type SubscribeField = (typeof SUBSCRIBE_FIELDS)[number];

export const DELETE_FIELDS = ["password", "confirm"] as const;
export type DeleteField = (typeof DELETE_FIELDS)[number];

/** The label of each contact topic, in the contract's order. */
export const TOPIC_LABELS: Readonly<Record<ContactTopic, TranslationKey>> = {
  general: "contact.topics.general",
  consultations: "contact.topics.consultations",
  membership_billing: "contact.topics.membershipBilling",
  technical: "contact.topics.technical",
  privacy: "contact.topics.privacy",
  feedback: "contact.topics.feedback",
};
export { CONTACT_TOPICS };

type Kind = "required" | "invalid" | "tooLong";

/** Each field's message for each kind of problem (checked against en.json by tsc). */
const MESSAGES: Readonly<Record<string, Readonly<Record<Kind, TranslationKey>>>> = {
  name: {
    required: "contact.errors.nameRequired",
    invalid: "contact.errors.nameRequired",
    tooLong: "contact.errors.nameTooLong",
  },
  email: {
    required: "forms.errors.email.required",
    invalid: "forms.errors.email.invalid",
    tooLong: "forms.errors.email.invalid",
  },
  topic: {
    required: "contact.errors.topicRequired",
    invalid: "contact.errors.topicRequired",
    tooLong: "contact.errors.topicRequired",
  },
  message: {
    required: "contact.errors.messageRequired",
    invalid: "contact.errors.messageRequired",
    tooLong: "contact.errors.messageTooLong",
  },
  password: {
    required: "dataRights.errors.passwordRequired",
    invalid: "dataRights.errors.passwordRequired",
    tooLong: "dataRights.errors.passwordRequired",
  },
  confirm: {
    required: "dataRights.errors.confirmRequired",
    invalid: "dataRights.errors.confirmRequired",
    tooLong: "dataRights.errors.confirmRequired",
  },
};

/** zod issues → one message per field (the first issue of a field wins). */
export function communicationFieldErrors<F extends string>(
  issues: readonly IssueLike[],
  values: Partial<Record<F, string>>,
): FieldErrors<F> {
  const errors: FieldErrors<F> = {};
  for (const issue of issues) {
    const field = issue.path[0];
    if (typeof field !== "string" || Object.hasOwn(errors, field)) continue;
    const raw = values[field as F];
    const kind: Kind =
      raw === undefined || raw.trim() === "" ? "required" : issue.code === "too_big" ? "tooLong" : "invalid";
    const key = MESSAGES[field]?.[kind] ?? "forms.errors.invalid";
    const message: FormMessage =
      kind === "tooLong" && issue.maximum !== undefined
        ? { key, values: { max: Number(issue.maximum) } }
        : { key };
    errors[field as F] = message;
  }
  return errors;
}
