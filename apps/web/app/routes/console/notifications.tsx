import { data, useActionData, useLoaderData } from "react-router";
import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { PageHeading } from "#app/components/page.tsx";
import { NotificationSettingsView } from "#app/features/notifications/notification-settings.tsx";
import { notificationsAction, notificationsApi } from "#app/features/notifications/notifications.server.ts";
import { isSecureRequest } from "#app/lib/env.server.ts";
import { chooseLocale } from "#app/lib/locale.server.ts";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteClinician } from "#app/lib/session.server.ts";
import type { Route } from "./+types/notifications";

/** The console's notification settings (ADR 064): the clinician's devices that receive web push. */
export async function loader({ request, pattern, context }: Route.LoaderArgs) {
  const { user } = await requireRouteClinician(request, pattern);
  const settings = await notificationsApi(request, user, context, "clinician").settings();
  return data(settings, { headers: { "Cache-Control": "private, no-store" } });
}

export async function action({ request, pattern, context }: Route.ActionArgs) {
  const { user } = await requireRouteClinician(request, pattern);
  const { locale } = chooseLocale(request, { secure: isSecureRequest(request) });
  return notificationsAction(request, user, context, "clinician", locale);
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "consoleNotifications");

export default function ConsoleNotificationsPage() {
  const settings = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return (
    <div className="page-container py-10">
      <PageHeading page="consoleNotifications" />
      <NotificationSettingsView settings={settings} result={result} action="/console/notifications" />
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
