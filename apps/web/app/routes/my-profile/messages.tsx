import { type ConsultationStatus, MESSAGE_MAX_LENGTH } from "@ambercare/contracts/consultation-limits";
import { data, Link, useActionData, useLoaderData } from "react-router";
import { EmptyState } from "#app/components/empty-state.tsx";
import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { AccountPage } from "#app/components/page.tsx";
import { TOPIC_LABELS } from "#app/features/communications/communication-fields.ts";
import { supportMessages } from "#app/features/communications/communications.server.ts";
import { consultationApi } from "#app/features/consultations/consultations.server.ts";
import { VisitChat } from "#app/features/visit-chat/visit-chat.tsx";
import { isApiError } from "#app/lib/api-client.server.ts";
import { describeApiError } from "#app/lib/api-errors.ts";
import { useDateTime } from "#app/lib/date-time.ts";
import { readFormData } from "#app/lib/form-body.server.ts";
import type { FormMessage } from "#app/lib/forms.ts";
import { type TranslationKey, useTranslation } from "#app/lib/i18n.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteUser } from "#app/lib/session.server.ts";
import type { Route } from "./+types/messages";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function loader({ request, pattern, context }: Route.LoaderArgs) {
  const { user } = await requireRouteUser(request, pattern);
  const api = consultationApi(request, user, context);
  const [threads, support] = await Promise.all([api.list(), supportMessages(request, user)]);
  const wanted = new URL(request.url).searchParams.get("consultation") ?? "";
  const selected = threads.find((c) => c.id === wanted) ?? threads[0] ?? null;
  const messages = selected ? await api.messages(selected.id) : [];
  return { threads, selected, messages, support };
}

type MessageAction = { ok: boolean; message?: FormMessage; body?: string };

/**
 * The patient writes to a consultation's thread without scripts (the chat component sends through
 * /visit-chat/:id when they run, with live delivery).
 */
export async function action({ request, pattern, context }: Route.ActionArgs) {
  const { user } = await requireRouteUser(request, pattern);
  const form = await readFormData(request);
  const consultation = String(form.get("consultation") ?? "");
  const body = String(form.get("body") ?? "");
  if (!UUID.test(consultation)) throw new Response("Not Found", { status: 404 });
  if (body.trim() === "") {
    return data<MessageAction>(
      { ok: false, message: { key: "messages.errors.empty" }, body },
      { status: 400 },
    );
  }
  if (body.length > MESSAGE_MAX_LENGTH) {
    return data<MessageAction>(
      { ok: false, message: { key: "forms.errors.tooLong", values: { max: MESSAGE_MAX_LENGTH } }, body },
      { status: 400 },
    );
  }
  try {
    await consultationApi(request, user, context).writeMessage(consultation, body);
  } catch (error) {
    if (!isApiError(error) || error.status >= 500 || error.status === 0) throw error;
    const { message } = describeApiError(error, { fallback: { key: "messages.errors.failed" } });
    return data<MessageAction>({ ok: false, message, body }, { status: error.status });
  }
  return { ok: true } satisfies MessageAction;
}

/** The thread takes messages once a clinician accepted the visit, and after it for follow-up questions. */
const CHAT_OPEN_STATUSES: readonly ConsultationStatus[] = ["accepted", "in_progress", "completed"];
/** Why the thread takes no message, by status (canceled: messages.closed). */
const CLOSED_NOTICES: Partial<Record<ConsultationStatus, TranslationKey>> = {
  requested: "apiErrors.visitThreadNotOpen",
  expired: "apiErrors.visitThreadReadOnly",
};

export const meta: Route.MetaFunction = (args) => pageMeta(args, "messages");

export default function MessagesPage() {
  const { t } = useTranslation();
  const when = useDateTime();
  const sentOn = useDateTime("longDateTime");
  const { threads, selected, messages, support } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return (
    <AccountPage page="messages">
      {/* Consultation threads have their own section; other conversations (support) get theirs. */}
      <section aria-labelledby="messages-consultations" className="mt-8 flex flex-col gap-6">
        <h2 id="messages-consultations" className="font-bold text-2xl text-ink">
          {t("messages.consultationsHeading")}
        </h2>
        {threads.length === 0 ? (
          <EmptyState
            title={t("messages.emptyTitle")}
            testId="messages-empty"
            action={
              <Link to="/consultation/consult" className="button-primary">
                {t("consultation.list.request")}
              </Link>
            }
          >
            <p>{t("messages.emptyText")}</p>
            <p className="mt-2">{t("messages.noThreads")}</p>
          </EmptyState>
        ) : (
          <div className="grid gap-6 laptop:grid-cols-[16rem_1fr]">
            <nav aria-label={t("messages.threadsLabel")}>
              <ul className="flex flex-col gap-1">
                {threads.map((thread) => (
                  <li key={thread.id}>
                    <Link
                      to={`/my-profile/messages?consultation=${thread.id}`}
                      aria-current={thread.id === selected?.id ? "page" : undefined}
                      className={`block rounded-md px-3 py-2 no-underline ${
                        thread.id === selected?.id
                          ? "bg-primary font-semibold text-on-primary"
                          : "text-ink hover:bg-surface-muted"
                      }`}
                    >
                      {/* Named by what the visit was and with whom; the date and status tell two apart. */}
                      <span className="block">
                        {t(`consultation.types.${thread.type}`)} ·{" "}
                        {thread.provider
                          ? `${thread.provider.name}, ${thread.provider.credentials}`
                          : t("messages.noProvider")}
                      </span>
                      <span className="block text-sm">
                        {when(thread.created_at)} · {t(`consultation.statuses.${thread.status}`)}
                      </span>
                    </Link>
                  </li>
                ))}
              </ul>
            </nav>
            {selected ? (
              <div className="flex min-w-0 flex-col gap-4">
                <h3 className="font-bold text-ink text-xl">
                  {t("messages.threadTitle", {
                    type: t(`consultation.types.${selected.type}`),
                    status: t(`consultation.statuses.${selected.status}`),
                  })}
                </h3>
                <VisitChat
                  key={selected.id}
                  consultationId={selected.id}
                  side="patient"
                  initialMessages={messages}
                  open={CHAT_OPEN_STATUSES.includes(selected.status)}
                  closedNotice={t(CLOSED_NOTICES[selected.status] ?? "messages.closed")}
                  initialDraft={result && !result.ok ? result.body : undefined}
                  initialError={result && !result.ok ? result.message : undefined}
                />
              </div>
            ) : null}
          </div>
        )}
      </section>
      <section aria-labelledby="messages-support" className="mt-10">
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
                      {t("supportWidget.sentOn", { date: sentOn(entry.created_at) })}
                    </time>
                  </p>
                  <p className="mt-2 whitespace-pre-wrap break-words text-ink">{entry.message}</p>
                </article>
              </li>
            ))}
          </ol>
        )}
      </section>
    </AccountPage>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
