import { data, useActionData, useLoaderData } from "react-router";
import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { AccountPage } from "#app/components/page.tsx";
import { NotificationSettingsView } from "#app/features/notifications/notification-settings.tsx";
import {
  notificationsAction,
  notificationsApi,
  textMessagesApi,
} from "#app/features/notifications/notifications.server.ts";
import {
  profilePhoneOffer,
  TextMessagesSection,
} from "#app/features/notifications/text-message-settings.tsx";
import { isSecureRequest } from "#app/lib/env.server.ts";
import { chooseLocale } from "#app/lib/locale.server.ts";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteUser } from "#app/lib/session.server.ts";
import type { Route } from "./+types/notifications";

/**
 * My profile › Notifications (ADR 064): the patient's devices that receive web push, and their
 * choices; the mobile number that receives reminder texts, its code and consent (no such section
 * when the clinic sends no texts).
 */
export async function loader({ request, pattern, context }: Route.LoaderArgs) {
  const { user } = await requireRouteUser(request, pattern);
  const { locale } = chooseLocale(request, { secure: isSecureRequest(request) });
  const [settings, texts] = await Promise.all([
    notificationsApi(request, user, context, "patient").settings(),
    textMessagesApi(request, user, context).status(locale),
  ]);
  // The profile's phone is offered to fill the texting number's field, never used for texts by itself.
  const profilePhone = texts?.sending ? profilePhoneOffer(user.account.phone, new URL(request.url)) : null;
  return data(
    { ...settings, texts, locale, profilePhone },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export async function action({ request, pattern, context }: Route.ActionArgs) {
  const { user } = await requireRouteUser(request, pattern);
  const { locale } = chooseLocale(request, { secure: isSecureRequest(request) });
  return notificationsAction(request, user, context, "patient", locale);
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "notifications");

export default function NotificationsPage() {
  const settings = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return (
    <AccountPage page="notifications">
      <NotificationSettingsView
        settings={settings}
        result={result?.form ? undefined : result}
        action="/my-profile/notifications"
      />
      <TextMessagesSection
        status={settings.texts}
        locale={settings.locale}
        result={result}
        profilePhone={settings.profilePhone}
      />
    </AccountPage>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
