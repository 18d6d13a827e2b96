import type { NotificationDevice, NotificationEvent } from "@ambercare/contracts/notifications";
import { useEffect, useState } from "react";
import { Form, useFetcher } from "react-router";
import { StatusMessage, SubmitButton } from "#app/components/forms.tsx";
import type {
  NotificationSettings,
  NotificationsAction,
} from "#app/features/notifications/notifications.server.ts";
import {
  currentEndpoint,
  deviceLabel,
  type PushSupport,
  pushSupport,
  subscribeThisBrowser,
} from "#app/features/notifications/push-client.ts";
import { useTranslation } from "#app/lib/i18n.tsx";

/**
 * Turning web push on for this browser (ADR 064): a button, never a prompt on page load; the browser
 * asks for the permission only after the click, and the subscription is posted to `action` (the
 * settings page's route), which registers it for the signed-in person.
 */
export function TurnOnThisDevice({
  publicKey,
  action,
  onDone,
}: {
  publicKey: string;
  action: string;
  onDone?: () => void;
}) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const fetcher = useFetcher<NotificationsAction>();
  const [support, setSupport] = useState<PushSupport | null>(null);
  const [refused, setRefused] = useState(false);
  useEffect(() => setSupport(pushSupport()), []);
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.status === "success") onDone?.();
  }, [fetcher.state, fetcher.data, onDone]);
  if (support === null) return null;
  if (support === "unsupported") return <p className="text-ink-muted">{t("notifications.unsupported")}</p>;
  if (support === "denied" || refused) return <p className="text-ink-muted">{t("notifications.blocked")}</p>;
  return (
    <div className="flex flex-col gap-2">
      <button
        type="button"
        className="button-primary w-full tablet:w-auto"
        aria-disabled={fetcher.state !== "idle" || undefined}
        onClick={async () => {
          if (fetcher.state !== "idle") return;
          const subscription = await subscribeThisBrowser(publicKey).catch(() => null);
          if (!subscription?.endpoint || !subscription.keys) {
            setRefused(true);
            return;
          }
          await fetcher.submit(
            {
              intent: "add",
              endpoint: subscription.endpoint,
              p256dh: subscription.keys.p256dh ?? "",
              auth: subscription.keys.auth ?? "",
              label: deviceLabel(navigator.userAgent),
              locale,
            },
            { method: "post", action },
          );
        }}
      >
        {fetcher.state === "idle" ? t("notifications.turnOn") : t("notifications.turningOn")}
      </button>
      <StatusMessage message={fetcher.data?.message} />
    </div>
  );
}

function DeviceSettings({
  device,
  events,
  current,
}: {
  device: NotificationDevice;
  events: NotificationEvent[];
  current: boolean;
}) {
  const { t } = useTranslation();
  const off = new Set(device.disabled_events);
  const id = `device-${device.id}`;
  return (
    <li className="rounded-md border border-border p-4">
      <h3 id={`${id}-name`} className="font-bold text-ink text-xl">
        {device.label}
        {current ? (
          <span className="ml-2 font-normal text-base text-ink-muted">{t("notifications.thisDevice")}</span>
        ) : null}
      </h3>
      <Form method="post" className="mt-3 flex flex-col gap-4" aria-labelledby={`${id}-name`}>
        <input type="hidden" name="intent" value="save" />
        <input type="hidden" name="device" value={device.id} />
        <fieldset className="flex flex-col gap-2">
          <legend className="font-semibold text-ink">{t("notifications.tellMeAbout")}</legend>
          {events.map((event) => (
            <div key={event} className="flex items-start gap-3">
              <input type="hidden" name="offered" value={event} />
              <input
                id={`${id}-${event}`}
                type="checkbox"
                name="event"
                value={event}
                defaultChecked={!off.has(event)}
                className="mt-1 size-5 shrink-0 accent-primary-ink"
              />
              <label htmlFor={`${id}-${event}`} className="text-ink">
                {t(`notifications.events.${event}`)}
              </label>
            </div>
          ))}
        </fieldset>
        <div className="flex items-start gap-3">
          <input
            id={`${id}-detailed`}
            type="checkbox"
            name="detailed"
            defaultChecked={device.detailed}
            aria-describedby={`${id}-detailed-hint`}
            className="mt-1 size-5 shrink-0 accent-primary-ink"
          />
          <div>
            <label htmlFor={`${id}-detailed`} className="text-ink">
              {t("notifications.detailed")}
            </label>
            <p id={`${id}-detailed-hint`} className="text-ink-muted text-sm">
              {t("notifications.detailedHint")}
            </p>
          </div>
        </div>
        <div>
          <SubmitButton intent="save" pendingLabel={t("notifications.saving")}>
            {t("notifications.save")}
          </SubmitButton>
        </div>
      </Form>
      <Form method="post" className="mt-3">
        <input type="hidden" name="intent" value="remove" />
        <input type="hidden" name="device" value={device.id} />
        <button type="submit" name="intent" value="remove" className="link">
          {t("notifications.remove", { device: device.label })}
        </button>
      </Form>
    </li>
  );
}

/** My profile › Notifications and the console's: this device, then every device with its choices. */
export function NotificationSettingsView({
  settings,
  result,
  action,
}: {
  settings: NotificationSettings;
  result: NotificationsAction | undefined;
  action: string;
}) {
  const { t } = useTranslation();
  const [endpoint, setEndpoint] = useState<string | null>(null);
  useEffect(() => {
    void currentEndpoint()
      .then(setEndpoint)
      .catch(() => undefined);
  }, []);
  const registered = settings.devices.some((device) => device.endpoint === endpoint);
  return (
    <div className="mt-8 flex max-w-2xl flex-col gap-8">
      <StatusMessage message={result?.message} />
      <p className="text-ink">{t("notifications.privacy")}</p>
      {registered ? null : (
        <section aria-labelledby="this-device" className="flex flex-col gap-3">
          <h2 id="this-device" className="font-bold text-2xl text-ink">
            {t("notifications.thisDeviceHeading")}
          </h2>
          <TurnOnThisDevice publicKey={settings.public_key} action={action} />
        </section>
      )}
      <section aria-labelledby="devices" className="flex flex-col gap-3">
        <h2 id="devices" className="font-bold text-2xl text-ink">
          {t("notifications.devicesHeading")}
        </h2>
        {settings.devices.length === 0 ? (
          <p className="text-ink-muted">{t("notifications.noDevices")}</p>
        ) : (
          <ul className="flex flex-col gap-4">
            {settings.devices.map((device) => (
              <DeviceSettings
                key={device.id}
                device={device}
                events={settings.events}
                current={device.endpoint === endpoint}
              />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

/**
 * The offer to turn notifications on, at a moment it makes sense (a visit was just requested or
 * booked; the clinician went on duty): it reads the settings page's data, and shows nothing when
 * this browser already notifies or cannot.
 */
export function PushOptIn({ settingsPath, message }: { settingsPath: string; message: string }) {
  const { t } = useTranslation();
  const settings = useFetcher<NotificationSettings>();
  const load = settings.load;
  const [endpoint, setEndpoint] = useState<string | null | undefined>(undefined);
  const [done, setDone] = useState(false);
  useEffect(() => {
    if (pushSupport() !== "default" && pushSupport() !== "granted") return;
    void currentEndpoint()
      .then(setEndpoint)
      .catch(() => undefined);
    void load(settingsPath);
  }, [settingsPath, load]);
  const data = settings.data;
  if (!data || endpoint === undefined) return null;
  if (data.devices.some((device) => device.endpoint === endpoint)) return null;
  return (
    <aside
      aria-labelledby="push-opt-in"
      className="mt-6 rounded-md border border-border bg-surface-muted p-4"
    >
      <h2 id="push-opt-in" className="font-bold text-ink text-xl">
        {t("notifications.offerHeading")}
      </h2>
      <p className="mt-2 text-ink">{message}</p>
      <div className="mt-3">
        {done ? (
          <p role="status">{t("notifications.added")}</p>
        ) : (
          <TurnOnThisDevice publicKey={data.public_key} action={settingsPath} onDone={() => setDone(true)} />
        )}
      </div>
    </aside>
  );
}
