import { MESSAGE_MAX_LENGTH } from "@ambercare/contracts/consultation-limits";
import { visitTypeRow } from "@ambercare/contracts/visit-types";
import { type ReactNode, useEffect, useRef } from "react";
import { data, Link, useActionData, useLoaderData } from "react-router";
import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { CHAT_STATUSES } from "#app/features/care-console/chat-statuses.ts";
import { consoleApi } from "#app/features/care-console/console.server.ts";
import type { NotesAutosave } from "#app/features/care-console/notes-autosave.ts";
import { SoapNotesEditor } from "#app/features/care-console/soap-notes.tsx";
import { runVisitAction, type VisitActionResult } from "#app/features/care-console/visit-actions.server.ts";
import {
  CancelForm,
  CompleteForm,
  clearSummaryDraft,
  FormNote,
  PastVisits,
  PatientDocuments,
  SignedNotes,
  StartForm,
  VideoCallPanel,
} from "#app/features/care-console/workspace.tsx";
import { concernsWorkspace, WORKSPACE_TOPICS } from "#app/features/care-console/workspace-events.ts";
import { readWorkspacePage } from "#app/features/care-console/workspace-page.server.ts";
import { IntakeAnswers } from "#app/features/consultations/intake-answers.tsx";
import {
  RefreshFailedNotice,
  revalidateForOwnForms,
  useLivePageData,
} from "#app/features/live/live-page-data.tsx";
import { useShowingVisit } from "#app/features/notifications/use-showing-visit.ts";
import { DeviceCheck } from "#app/features/video-call/device-check.tsx";
import { visitChatApi } from "#app/features/visit-chat/visit-chat.server.ts";
import { VisitChat } from "#app/features/visit-chat/visit-chat.tsx";
import { isApiError } from "#app/lib/api-client.server.ts";
import { describeApiError } from "#app/lib/api-errors.ts";
import { useDateTime } from "#app/lib/date-time.ts";
import { readFormData } from "#app/lib/form-body.server.ts";
import type { FormMessage } from "#app/lib/forms.ts";
import { useTranslation } from "#app/lib/i18n.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteClinician } from "#app/lib/session.server.ts";
import { usStateName } from "#app/lib/us-state-names.ts";
import type { Route } from "./+types/visit";

/**
 * /console/visits/:id: the workspace of a visit the clinician accepted: the intake, the patient's
 * documents and earlier visits with this practice (every read is in the patient's access log), the
 * visit's steps, the chat, the SOAP notes saved as they type, and "Sign and complete".
 */
export async function loader({ request, pattern, params, context }: Route.LoaderArgs) {
  const { user } = await requireRouteClinician(request, pattern);
  const page = await readWorkspacePage(request, user, context, params.id);
  return data(page, { headers: { "Cache-Control": "private, no-store" } });
}

/** The page keeps itself up to date (useLivePageData); the router reads it again for its own forms. */
export const shouldRevalidate = revalidateForOwnForms;

type ChatResult = { chat: true; ok: boolean; message?: FormMessage; body?: string };

export async function action({ request, pattern, params, context }: Route.ActionArgs) {
  const { user } = await requireRouteClinician(request, pattern);
  const form = await readFormData(request);
  // The chat's composer without scripts posts its text here, with no intent.
  if (!form.has("intent") && form.has("body")) {
    const body = String(form.get("body") ?? "");
    if (body.trim() === "" || body.length > MESSAGE_MAX_LENGTH) {
      return data<ChatResult>(
        { chat: true, ok: false, message: { key: "messages.errors.empty" }, body },
        { status: 400 },
      );
    }
    try {
      await visitChatApi(request, user, context, "clinician").send(params.id, {
        body,
        client_id: crypto.randomUUID(),
      });
      return { chat: true, ok: true } satisfies ChatResult;
    } catch (error) {
      if (!isApiError(error) || error.status >= 500 || error.status === 0) throw error;
      const { message } = describeApiError(error, { fallback: { key: "messages.errors.failed" } });
      return data<ChatResult>({ chat: true, ok: false, message, body }, { status: error.status });
    }
  }
  const result = await runVisitAction(consoleApi(request, user, context), params.id, form);
  return data<VisitActionResult>(result, { status: result.status });
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "consoleVisit");

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="flex flex-col gap-3 rounded-md border border-border p-4">
      <h2 id={id} className="font-semibold text-ink text-xl">
        {title}
      </h2>
      {children}
    </section>
  );
}

export default function ConsoleVisitPage() {
  const { t } = useTranslation();
  const when = useDateTime();
  const loaded = useLoaderData<typeof loader>();
  // The patient may cancel, or another tab of this clinician move the visit on: read it again.
  // While the visit is open, also every few minutes: a long call keeps the session.
  const {
    data: { workspace, messages },
    refreshFailed,
  } = useLivePageData(
    loaded,
    `/console/visits/${loaded.workspace.visit.id}/data`,
    WORKSPACE_TOPICS,
    (event) => concernsWorkspace(event, loaded.workspace.visit.id),
    (data) => data.workspace.visit.status === "accepted" || data.workspace.visit.status === "in_progress",
  );
  useShowingVisit(loaded.workspace.visit.id, "clinician");
  const answer = useActionData<typeof action>();
  const autosaveRef = useRef<NotesAutosave | null>(null);
  const { visit, intake, documents, past_visits: pastVisits, notes } = workspace;
  const result = answer && !("chat" in answer) ? answer : undefined;
  const chatAnswer = answer && "chat" in answer ? answer : undefined;
  const noteOf = (form: VisitActionResult["form"]) => (result?.form === form ? result : undefined);
  const errorOf = (form: VisitActionResult["form"]) => {
    const own = noteOf(form);
    return own && !own.ok ? own.message : undefined;
  };
  const open = visit.status === "accepted" || visit.status === "in_progress";
  const type = t(`consultation.types.${visit.type}`);
  /** Held on a video call: the call starts the visit, no Start button. */
  const videoCall = visitTypeRow(visit.type).videoCall;
  useEffect(() => {
    // The summary draft kept for a reload is done with once the visit is over.
    if (!open) clearSummaryDraft(visit.id);
  }, [open, visit.id]);
  return (
    <div className="page-container flex flex-col gap-6 py-10">
      <p>
        <Link to="/console" className="link">
          {t("console.visit.back")}
        </Link>
      </p>
      <div className="flex flex-col gap-1">
        <h1 className="font-bold text-3xl text-ink">
          {t("console.visit.heading", { type, name: visit.patient_name })}
        </h1>
        <p className="text-ink" data-testid="workspace-status">
          {t("console.visit.status", { status: t(`consultation.statuses.${visit.status}`) })} ·{" "}
          {usStateName(t, visit.state)} ·{" "}
          {visit.patient_age === null
            ? t("console.visit.ageUnknown")
            : t("console.visit.ageValue", { age: visit.patient_age })}
        </p>
        <p className="text-ink-muted">
          {t("consultation.card.requested")}: {when(visit.created_at)}
        </p>
      </div>
      <RefreshFailedNotice message={refreshFailed ? t("console.visit.refreshFailed") : null} />
      {result && (result.form === "start" || result.form === "complete") ? (
        <FormNote message={result.message} ok={result.ok} />
      ) : null}
      {/* A booked visit (ADR 059) starts as an accepted one does, a video one with its call; the API
          says when it may. */}
      {(visit.status === "accepted" || visit.status === "scheduled") && !videoCall ? <StartForm /> : null}
      {/* A booked video visit's devices are tested before its start too (from its check-in opening). */}
      {videoCall && (visit.status === "accepted" || visit.status === "scheduled") ? (
        <DeviceCheck visitId={visit.id} side="clinician" />
      ) : null}
      <div className="grid grid-cols-1 gap-6 laptop:grid-cols-2">
        <div className="flex min-w-0 flex-col gap-6">
          {videoCall ? <VideoCallPanel visitId={visit.id} status={visit.status} /> : null}
          <Section id="intake-heading" title={t("console.visit.intakeHeading")}>
            <IntakeAnswers intake={intake} />
          </Section>
          <Section id="documents-heading" title={t("console.visit.documentsHeading")}>
            <PatientDocuments visitId={visit.id} documents={documents} />
          </Section>
          <Section id="past-heading" title={t("console.visit.pastHeading")}>
            <PastVisits visits={pastVisits} />
          </Section>
        </div>
        <div className="flex min-w-0 flex-col gap-6">
          {CHAT_STATUSES.includes(visit.status) ? (
            <Section id="chat-heading" title={t("console.visit.chatHeading")}>
              <VisitChat
                key={visit.id}
                consultationId={visit.id}
                side="clinician"
                initialMessages={messages}
                open
                closedNotice={t("console.visit.chatClosed")}
                initialDraft={chatAnswer && !chatAnswer.ok ? chatAnswer.body : undefined}
                initialError={chatAnswer && !chatAnswer.ok ? chatAnswer.message : undefined}
              />
            </Section>
          ) : null}
          <Section id="notes-heading" title={t("console.visit.notesHeading")}>
            {open && notes.signed_at === null ? (
              <>
                <SoapNotesEditor
                  consultationId={visit.id}
                  notes={notes}
                  initialText={noteOf("notes")?.typed?.notes}
                  initialLatest={noteOf("notes")?.latest}
                  autosaveRef={autosaveRef}
                />
                {noteOf("notes") ? (
                  <FormNote message={noteOf("notes")?.message} ok={noteOf("notes")?.ok ?? false} />
                ) : null}
              </>
            ) : (
              <SignedNotes
                notes={notes}
                typed={noteOf("addendum")?.typed?.addendum}
                error={errorOf("addendum")}
              />
            )}
            {noteOf("addendum")?.ok ? <FormNote message={noteOf("addendum")?.message} ok /> : null}
          </Section>
          {visit.status === "in_progress" ? (
            <Section id="complete-heading" title={t("console.visit.completeHeading")}>
              <CompleteForm
                visitId={visit.id}
                typed={noteOf("complete")?.typed?.summary}
                error={errorOf("complete")}
                autosaveRef={autosaveRef}
              />
            </Section>
          ) : visit.status === "accepted" || visit.status === "scheduled" ? (
            <Section id="complete-heading" title={t("console.visit.completeHeading")}>
              <p className="text-ink">{t("console.visit.startFirst")}</p>
            </Section>
          ) : null}
          {visit.visit_summary ? (
            <Section id="summary-heading" title={t("console.visit.summaryHeading")}>
              <p className="whitespace-pre-line text-ink" data-testid="workspace-summary">
                {visit.visit_summary}
              </p>
            </Section>
          ) : null}
          {visit.status === "accepted" ? (
            <Section id="cancel-heading" title={t("console.visit.cancelHeading")}>
              <CancelForm typed={noteOf("cancel")?.typed?.reason} error={errorOf("cancel")} />
              {noteOf("cancel")?.ok ? <FormNote message={noteOf("cancel")?.message} ok /> : null}
            </Section>
          ) : null}
          {noteOf("cancel")?.ok && visit.status === "canceled" ? (
            <FormNote message={noteOf("cancel")?.message} ok />
          ) : null}
        </div>
      </div>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
