import { Link, useLoaderData } from "react-router";
import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { AccountPage, Notice } from "#app/components/page.tsx";
import { TOPIC_LABELS } from "#app/lib/communication-fields.ts";
import { supportMessages } from "#app/lib/communications.server.ts";
import { useTranslation } from "#app/lib/i18n.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { useProductName } from "#app/lib/root-data.ts";
import { requireRouteAccess } from "#app/lib/session.server.ts";
import type { Route } from "./+types/messages";

export async function loader({ request }: Route.LoaderArgs) {
  const { user } = await requireRouteAccess(request, "/my-profile/messages");
  return { support: await supportMessages(request, user) };
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "messages");

/**
 * The patient's messages: what they wrote to support (the contact form and the support widget),
 * newest first. Threads with doctors come with the consultations.
 */
export default function MessagesPage() {
  const { t, i18n } = useTranslation();
  const product = useProductName();
  const { support } = useLoaderData<typeof loader>();
  const dateFormat = new Intl.DateTimeFormat(i18n.language === "bg" ? "bg-BG" : "en-US", {
    dateStyle: "long",
    // "long" names the zone; UTC gives the same text on the server and in the browser.
    timeStyle: "long",
    timeZone: "UTC",
  });
  return (
    <AccountPage page="messages">
      <section aria-labelledby="messages-support" className="mt-8">
        <h2 id="messages-support" className="font-bold text-2xl text-ink">
          {t("supportWidget.messagesHeading")}
        </h2>
        <p className="mt-2 text-ink-muted">{t("supportWidget.messagesLead")}</p>
        {support.length === 0 ? (
          <p className="mt-4 text-ink">
            {t("supportWidget.messagesEmpty")}{" "}
            <Link to="/contact-us" className="link">
              {t("supportWidget.messagesContact")}
            </Link>
          </p>
        ) : (
          <ol className="mt-4 flex flex-col gap-4">
            {support.map((entry) => (
              <li key={entry.id} className="rounded-md border border-border bg-surface p-4">
                <article aria-labelledby={`message-${entry.id}`}>
                  <h3 id={`message-${entry.id}`} className="font-semibold text-ink">
                    {t(TOPIC_LABELS[entry.topic])}
                    <span className="font-normal text-ink-muted">
                      {" · "}
                      {t(
                        entry.source === "widget"
                          ? "supportWidget.sources.widget"
                          : "supportWidget.sources.contactForm",
                      )}
                    </span>
                  </h3>
                  <p className="text-ink-muted text-sm">
                    <time dateTime={entry.created_at}>
                      {t("supportWidget.sentOn", { date: dateFormat.format(new Date(entry.created_at)) })}
                    </time>
                  </p>
                  <p className="mt-2 whitespace-pre-wrap break-words text-ink">{entry.message}</p>
                </article>
              </li>
            ))}
          </ol>
        )}
      </section>
      <section aria-labelledby="messages-consultations" className="mt-10">
        <h2 id="messages-consultations" className="font-bold text-2xl text-ink">
          {t("supportWidget.consultationsHeading")}
        </h2>
        <Notice>{t("status.featureOnItsWay", { product })}</Notice>
      </section>
    </AccountPage>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
