import type { PastVisit, VisitNotes } from "@ambercare/contracts/console";
import { SOAP_PARTS } from "@ambercare/contracts/console";
import type { MedicalDocument } from "@ambercare/contracts/consultation";
import { CANCEL_REASON_MAX_LENGTH, VISIT_SUMMARY_MAX_LENGTH } from "@ambercare/contracts/consultation-limits";
import { type MutableRefObject, useEffect, useRef, useState } from "react";
import { Form, useFetcher, useSubmit } from "react-router";
import { CheckboxField, SubmitButton, Textarea, translateMessage } from "#app/components/forms.tsx";
import { optionKey } from "#app/features/consultations/intake-form.ts";
import { type CallMedia, CallScreen, startCallMedia } from "#app/features/video-call/call-screen.tsx";
import { useDateTime } from "#app/lib/date-time.ts";
import type { FormMessage } from "#app/lib/forms.ts";
import { type TranslationKey, useTranslation } from "#app/lib/i18n.tsx";
import type { NotesAutosave } from "./notes-autosave.ts";

/** A form's own message: an error (alert) or a confirmation (status), beside the form it answers. */
export function FormNote({ message, ok }: { message: FormMessage | undefined; ok: boolean }) {
  const { t } = useTranslation();
  if (!message) return null;
  return ok ? (
    <p role="status" className="font-semibold text-ink">
      {translateMessage(t, message)}
    </p>
  ) : (
    <p role="alert" className="font-semibold text-danger">
      {translateMessage(t, message)}
    </p>
  );
}

export function PatientDocuments({ visitId, documents }: { visitId: string; documents: MedicalDocument[] }) {
  const { t } = useTranslation();
  const when = useDateTime();
  if (documents.length === 0) return <p className="text-ink-muted">{t("console.visit.documentsEmpty")}</p>;
  return (
    <ul className="flex flex-col gap-2">
      {documents.map((document) => (
        <li key={document.id}>
          <a
            href={`/console/visits/${visitId}/documents/${document.id}`}
            className="link"
            download={document.file_name}
            aria-label={t("console.visit.download", { name: document.file_name })}
          >
            {document.file_name}
          </a>{" "}
          <span className="text-ink-muted text-sm">{when(document.created_at)}</span>
        </li>
      ))}
    </ul>
  );
}

export function PastVisits({ visits }: { visits: PastVisit[] }) {
  const { t } = useTranslation();
  const when = useDateTime();
  if (visits.length === 0) return <p className="text-ink-muted">{t("console.visit.pastEmpty")}</p>;
  return (
    <ul className="flex flex-col gap-3">
      {visits.map((visit) => (
        <li key={visit.id} className="rounded-md border border-border p-3">
          <p className="font-semibold text-ink">
            {when(visit.created_at)} · {t(`consultation.types.${visit.type}`)} ·{" "}
            {t(`consultation.statuses.${visit.status}`)}
          </p>
          {visit.symptoms.length > 0 ? (
            <p className="text-ink">
              {visit.symptoms
                .map((s) => t(`consultation.options.symptoms.${optionKey(s)}` as TranslationKey))
                .join(", ")}
            </p>
          ) : null}
          {visit.visit_summary ? (
            <p className="mt-1 whitespace-pre-line text-ink">
              <span className="font-semibold">{t("console.visit.pastSummary")}: </span>
              {visit.visit_summary}
            </p>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

export function StartForm() {
  const { t } = useTranslation();
  return (
    <Form method="post">
      <input type="hidden" name="intent" value="start" />
      <SubmitButton intent="start" className="button-primary" pendingLabel={t("console.visit.starting")}>
        {t("console.visit.start")}
      </SubmitButton>
    </Form>
  );
}

/**
 * A video visit's call on the clinician's side: "Start video call" (an accepted or booked visit
 * begins and the patient's waiting room rings; once under way it rings again) opens the call screen
 * at once, the camera asked for from that click. The form posts to the workspace's action like its
 * others, so without scripts the visit still starts; the call itself needs them.
 */
export function VideoCallPanel({ visitId, status }: { visitId: string; status: string }) {
  const { t } = useTranslation();
  const fetcher = useFetcher<{ ok: boolean; message: FormMessage; form: string }>();
  const [media, setMedia] = useState<CallMedia | null>(null);
  // "The patient's waiting room is ringing" is said while it is true: from a ring until the patient
  // is in the call, and never once the clinician hung up.
  const [ringing, setRinging] = useState(false);
  const [patientHere, setPatientHere] = useState(false);
  const refused = fetcher.data && !fetcher.data.ok ? fetcher.data : undefined;
  useEffect(() => {
    // The call could not start (the visit ended meanwhile): the screen closes, the reason shows.
    if (refused) setMedia(null);
    else if (fetcher.data?.ok) setRinging(true);
  }, [refused, fetcher.data]);
  // A booked visit (ADR 059) starts with its call too; the API says when it may (its check-in window).
  if (status !== "accepted" && status !== "scheduled" && status !== "in_progress") return null;
  const note = fetcher.data && (!fetcher.data.ok || (ringing && media && !patientHere)) ? fetcher.data : null;
  return (
    <div className="flex flex-col gap-3">
      {media ? (
        <CallScreen
          consultationId={visitId}
          side="clinician"
          media={media}
          onLeave={() => {
            setMedia(null);
            setRinging(false);
            setPatientHere(false);
          }}
          onRemotePresence={(presence) => {
            setPatientHere(presence === "present");
            if (presence === "present") setRinging(false);
          }}
        />
      ) : null}
      <fetcher.Form
        method="post"
        onSubmit={() => {
          if (!media) setMedia(startCallMedia());
        }}
      >
        <input type="hidden" name="intent" value="call" />
        <button
          type="submit"
          className={media ? "button-secondary" : "button-primary"}
          disabled={fetcher.state !== "idle"}
          data-testid="start-call"
        >
          {fetcher.state !== "idle"
            ? t("videoCall.starting")
            : status !== "in_progress" || !media
              ? t("videoCall.start")
              : t("videoCall.restart")}
        </button>
      </fetcher.Form>
      <div aria-live="polite">{note ? <FormNote message={note.message} ok={note.ok} /> : null}</div>
    </div>
  );
}

export function CancelForm({
  typed,
  error,
}: {
  typed?: string | undefined;
  error?: FormMessage | undefined;
}) {
  const { t } = useTranslation();
  return (
    <Form method="post" className="flex flex-col gap-3" noValidate>
      <input type="hidden" name="intent" value="cancel" />
      <p className="text-ink">{t("console.visit.cancelRefund")}</p>
      <Textarea
        formId="cancel"
        name="reason"
        label={t("console.visit.cancelReason")}
        rows={2}
        maxLength={CANCEL_REASON_MAX_LENGTH}
        defaultValue={typed ?? ""}
        error={error}
      />
      <div>
        <SubmitButton
          intent="cancel"
          className="button-secondary"
          pendingLabel={t("console.visit.canceling")}
        >
          {t("console.visit.cancel")}
        </SubmitButton>
      </div>
    </Form>
  );
}

/**
 * The summary being written, kept in this tab's session storage until the visit is completed: it
 * is saved on the server only with "Sign and complete", and a reload must not lose it. Session
 * storage, not local: it goes with the tab, so no health text stays on a shared workstation.
 */
const summaryDraftKey = (visitId: string) => `ambercare.visit-summary.${visitId}`;

function sessionStore(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null; // storage switched off: the summary then lives as long as the page
  }
}

/** Forgets the draft summary of a visit (once it is completed). */
export function clearSummaryDraft(visitId: string): void {
  sessionStore()?.removeItem(summaryDraftKey(visitId));
}

/**
 * The summary for the patient and "Sign and complete", confirmed by a checkbox. With scripts, what
 * is typed in the notes is saved first: the notes signed are the notes on screen.
 */
export function CompleteForm({
  visitId,
  typed,
  error,
  autosaveRef,
}: {
  visitId: string;
  typed?: string | undefined;
  error?: FormMessage | undefined;
  autosaveRef: MutableRefObject<NotesAutosave | null>;
}) {
  const { t } = useTranslation();
  const submit = useSubmit();
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    // A summary typed before a reload comes back, unless the server sent one back with an error.
    const field = formRef.current?.elements.namedItem("summary");
    const draft = sessionStore()?.getItem(summaryDraftKey(visitId));
    if (typed === undefined && draft && field instanceof HTMLTextAreaElement && field.value === "") {
      field.value = draft;
    }
  }, [visitId, typed]);
  return (
    <Form
      ref={formRef}
      method="post"
      className="flex flex-col gap-4"
      onInput={(event) => {
        const target = event.target;
        if (target instanceof HTMLTextAreaElement && target.name === "summary") {
          sessionStore()?.setItem(summaryDraftKey(visitId), target.value);
        }
      }}
      onSubmit={(event) => {
        const autosave = autosaveRef.current;
        if (!autosave?.dirty()) return;
        event.preventDefault();
        const form = event.currentTarget;
        void autosave.flush().then((saved) => {
          if (saved) void submit(form, { method: "post" });
        });
      }}
    >
      <input type="hidden" name="intent" value="complete" />
      <Textarea
        formId="complete"
        name="summary"
        label={t("console.visit.summaryLabel")}
        hint={t("console.visit.summaryHint")}
        rows={5}
        maxLength={VISIT_SUMMARY_MAX_LENGTH}
        defaultValue={typed ?? ""}
        error={error}
      />
      <CheckboxField formId="complete" name="confirm" label={t("console.visit.confirm")} />
      <div>
        <SubmitButton
          intent="complete"
          className="button-primary"
          pendingLabel={t("console.visit.completing")}
        >
          {t("console.visit.complete")}
        </SubmitButton>
      </div>
    </Form>
  );
}

/** Signed notes, read only, their addenda, and the form of a new addendum. */
export function SignedNotes({
  notes,
  typed,
  error,
}: {
  notes: VisitNotes;
  typed?: string | undefined;
  error?: FormMessage | undefined;
}) {
  const { t } = useTranslation();
  const when = useDateTime();
  return (
    <div className="flex flex-col gap-4" data-testid="signed-notes">
      {notes.signed_at ? (
        <p className="font-semibold text-ink">
          {t("console.visit.signedAt", { when: when(notes.signed_at) })}
        </p>
      ) : null}
      <dl className="flex flex-col gap-3">
        {SOAP_PARTS.map((part) => (
          <div key={part}>
            <dt className="font-semibold text-ink">{t(`console.visit.soap.${part}`)}</dt>
            <dd className="whitespace-pre-line break-words text-ink">{notes[part] || "—"}</dd>
          </div>
        ))}
      </dl>
      <h3 className="font-semibold text-ink text-lg">{t("console.visit.addendaHeading")}</h3>
      {notes.addenda.length > 0 ? (
        <ol className="flex flex-col gap-3" data-testid="addenda">
          {notes.addenda.map((addendum) => (
            <li key={addendum.id} className="rounded-md border border-border p-3">
              <p className="text-ink-muted text-sm">
                {t("console.visit.addendumBy", { name: addendum.signed_by, when: when(addendum.signed_at) })}
              </p>
              <p className="whitespace-pre-line break-words text-ink">{addendum.body}</p>
            </li>
          ))}
        </ol>
      ) : null}
      {notes.signed_at ? (
        <Form method="post" className="flex flex-col gap-3" noValidate>
          <input type="hidden" name="intent" value="addendum" />
          <Textarea
            formId="addendum"
            name="body"
            label={t("console.visit.addendumLabel")}
            rows={3}
            defaultValue={typed ?? ""}
            error={error}
          />
          <div>
            <SubmitButton
              intent="addendum"
              className="button-secondary"
              pendingLabel={t("console.visit.addingAddendum")}
            >
              {t("console.visit.addAddendum")}
            </SubmitButton>
          </div>
        </Form>
      ) : null}
    </div>
  );
}
