import type { Locale } from "@ambercare/contracts/locales";
import {
  NOTIFICATION_EVENTS,
  type NotificationDevice,
  type NotificationEvent,
  type TextMessageStatus,
} from "@ambercare/contracts/notifications";
import { data } from "react-router";
import { userApi, visitorHeaders } from "#app/lib/api.server.ts";
import { isApiError } from "#app/lib/api-client.server.ts";
import { describeApiError } from "#app/lib/api-errors.ts";
import { readFormData } from "#app/lib/form-body.server.ts";
import type { FormMessage } from "#app/lib/forms.ts";
import type { SessionUser } from "#app/lib/session.server.ts";

type Context = { clientIp?: string } | undefined;
export type Audience = "patient" | "clinician";

export type NotificationSettings = {
  public_key: string;
  events: NotificationEvent[];
  devices: NotificationDevice[];
};
export type NotificationsAction = {
  status: "success" | "error";
  message: FormMessage;
  /** The form of the text-message section it answers: its section shows it, its field the error. */
  form?: TextForm;
};

/**
 * The person's web push devices (ADR 064): the patient's through the care API, the clinician's
 * through the main API, with the person's token and the visitor's address (ADR 025).
 */
export function notificationsApi(request: Request, user: SessionUser, context: Context, audience: Audience) {
  const all = userApi(request, user);
  const api = audience === "patient" ? all.notifications : all.consoleNotifications;
  const options = { headers: visitorHeaders(context) };
  return {
    async settings(): Promise<NotificationSettings> {
      return (await api.listDevices({}, options)).data;
    },
    async add(body: {
      endpoint: string;
      keys: { p256dh: string; auth: string };
      label: string;
      locale: "en" | "bg";
    }) {
      return (await api.addDevice({ body }, options)).data;
    },
    async update(deviceId: string, body: { detailed: boolean; disabled_events: NotificationEvent[] }) {
      return (await api.updateDevice({ params: { deviceId }, body }, options)).data;
    },
    async remove(deviceId: string) {
      await api.removeDevice({ params: { deviceId } }, options);
    },
    async showing(deviceId: string, consultationId: string | null) {
      await api.deviceShowing({ params: { deviceId }, body: { consultation_id: consultationId } }, options);
    },
  };
}

/** The patient's mobile number for reminder texts (ADR 064), through the care API. */
export function textMessagesApi(request: Request, user: SessionUser, context: Context) {
  const api = userApi(request, user).notifications;
  const options = { headers: visitorHeaders(context) };
  return {
    /** The number's state; null when the clinic sends no texts (TEXT_MESSAGES_OFF): no section then. */
    async status(locale: Locale): Promise<TextMessageStatus | null> {
      try {
        return (await api.textMessages({ query: { locale } }, options)).data;
      } catch (error) {
        if (isApiError(error) && error.code === "TEXT_MESSAGES_OFF") return null;
        throw error;
      }
    },
    setNumber: (phone: string, locale: Locale) => api.setTextNumber({ body: { phone, locale } }, options),
    resend: (locale: Locale) => api.resendTextCode({ body: { locale } }, options),
    confirm: (code: string) => api.confirmTextNumber({ body: { code } }, options),
    consent: (locale: Locale, wording: string) => api.giveTextConsent({ body: { locale, wording } }, options),
    optOut: () => api.optOutOfTexts({}, options),
    remove: () => api.removeTextNumber({}, options),
  };
}

/** The forms of the text-message section, by their `intent`. */
export const TEXT_FORMS = [
  "text-number",
  "text-confirm",
  "text-resend",
  "text-consent",
  "text-opt-out",
  "text-remove",
] as const;
export type TextForm = (typeof TEXT_FORMS)[number];
const isTextForm = (value: string): value is TextForm => (TEXT_FORMS as readonly string[]).includes(value);

/** One form of the text-message section: the call, and what the page says when it succeeds. */
async function textAction(
  api: ReturnType<typeof textMessagesApi>,
  form: TextForm,
  field: (name: string) => string,
  locale: Locale,
): Promise<NotificationsAction> {
  switch (form) {
    case "text-number":
      await api.setNumber(field("phone"), locale);
      return { status: "success", message: { key: "notifications.texts.saved.codeSent" } };
    case "text-resend":
      await api.resend(locale);
      return { status: "success", message: { key: "notifications.texts.saved.codeSent" } };
    case "text-confirm":
      await api.confirm(field("code").replaceAll(/\s/g, ""));
      return { status: "success", message: { key: "notifications.texts.saved.confirmed" } };
    case "text-consent":
      if (field("agree") !== "on")
        return { status: "error", message: { key: "notifications.texts.errors.consentRequired" } };
      await api.consent(field("locale") === "bg" ? "bg" : "en", field("wording"));
      return { status: "success", message: { key: "notifications.texts.saved.consented" } };
    case "text-opt-out":
      await api.optOut();
      return { status: "success", message: { key: "notifications.texts.saved.optedOut" } };
    case "text-remove":
      await api.remove();
      return { status: "success", message: { key: "notifications.texts.saved.removed" } };
  }
}

const isEvent = (value: string): value is NotificationEvent =>
  (NOTIFICATION_EVENTS as readonly string[]).includes(value);

/**
 * The settings page's forms: `intent=add` (this browser's subscription, posted by the page's
 * script after the person allowed notifications), `intent=save` (one device's events and detail)
 * and `intent=remove`; `intent=showing` is the visit page telling which visit it visibly shows.
 */
export async function notificationsAction(
  request: Request,
  user: SessionUser,
  context: Context,
  audience: Audience,
  locale: "en" | "bg",
) {
  const api = notificationsApi(request, user, context, audience);
  const form = await readFormData(request);
  const text = (name: string) => String(form.get(name) ?? "");
  const intent = text("intent");
  if (audience === "patient" && isTextForm(intent)) {
    try {
      const result = await textAction(textMessagesApi(request, user, context), intent, text, locale);
      return data<NotificationsAction>(
        { ...result, form: intent },
        { status: result.status === "error" ? 400 : 200 },
      );
    } catch (error) {
      if (!isApiError(error)) throw error;
      const failure = describeApiError(error);
      return data<NotificationsAction>(
        { status: "error", form: intent, message: failure.message },
        { status: failure.status },
      );
    }
  }
  try {
    switch (intent) {
      case "add":
        await api.add({
          endpoint: text("endpoint"),
          keys: { p256dh: text("p256dh"), auth: text("auth") },
          label: text("label").slice(0, 80) || "Browser",
          locale,
        });
        return data<NotificationsAction>({ status: "success", message: { key: "notifications.added" } });
      case "save": {
        const offered = form.getAll("offered").map(String).filter(isEvent);
        const on = new Set(form.getAll("event").map(String));
        await api.update(text("device"), {
          detailed: form.get("detailed") === "on",
          disabled_events: offered.filter((event) => !on.has(event)),
        });
        return data<NotificationsAction>({ status: "success", message: { key: "notifications.saved" } });
      }
      case "remove":
        await api.remove(text("device"));
        return data<NotificationsAction>({ status: "success", message: { key: "notifications.removed" } });
      case "showing":
        await api.showing(text("device"), text("consultation") || null);
        return data<NotificationsAction>({ status: "success", message: { key: "notifications.saved" } });
      default:
        return data<NotificationsAction>(
          { status: "error", message: { key: "apiErrors.rejected" } },
          { status: 400 },
        );
    }
  } catch (error) {
    if (!isApiError(error)) throw error;
    const failure = describeApiError(error);
    return data<NotificationsAction>(
      { status: "error", message: failure.message },
      { status: failure.status },
    );
  }
}
