import {
  NOTIFICATION_EVENTS,
  type NotificationDevice,
  type NotificationEvent,
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
export type NotificationsAction = { status: "success" | "error"; message: FormMessage };

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
  try {
    switch (text("intent")) {
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
