import {
  NOTES_AUTOSAVE_DELAY_MS,
  SOAP_PARTS,
  VISIT_NOTE_MAX_LENGTH,
  type VisitNotes,
} from "@ambercare/contracts/console";
import { type MutableRefObject, useEffect, useId, useRef, useState } from "react";
import { Form } from "react-router";
import { useHydrated } from "#app/components/forms.tsx";
import { useDateTime } from "#app/lib/date-time.ts";
import { useTranslation } from "#app/lib/i18n.tsx";
import {
  type AutosaveState,
  createNotesAutosave,
  type NotesAutosave,
  type SaveOutcome,
  type SoapText,
  soapTextOf,
} from "./notes-autosave.ts";

/** One save of the notes through the console's resource route (the web server holds the token). */
async function saveNotes(consultationId: string, text: SoapText, version: number): Promise<SaveOutcome> {
  const body = new FormData();
  for (const part of SOAP_PARTS) body.set(part, text[part]);
  body.set("version", String(version));
  const response = await fetch(`/console/visits/${consultationId}/notes`, { method: "POST", body });
  const answer = (await response.json().catch(() => ({}))) as {
    notes?: VisitNotes;
    latest?: VisitNotes;
    code?: string;
  };
  if (response.ok && answer.notes) return { kind: "saved", notes: answer.notes };
  if (answer.code === "NOTES_STALE" && answer.latest) return { kind: "stale", latest: answer.latest };
  if (answer.code === "NOTES_SIGNED") return { kind: "signed" };
  return { kind: "failed" };
}

function SaveState({ state, onRetry }: { state: AutosaveState; onRetry: () => void }) {
  const { t } = useTranslation();
  const clock = useDateTime("time");
  const text =
    state.status === "saving"
      ? t("console.visit.saving")
      : state.status === "pending"
        ? t("console.visit.unsaved")
        : state.status === "failed"
          ? t("console.visit.notSaved")
          : state.status === "signed"
            ? t("console.notes.signedAlready")
            : state.savedAt
              ? t("console.visit.savedAt", { time: clock(state.savedAt) })
              : "";
  return (
    <div className="flex min-h-8 flex-wrap items-center gap-3">
      <p
        role="status"
        className={state.status === "failed" ? "font-semibold text-danger" : "text-ink-muted"}
        data-testid="notes-state"
      >
        {text}
      </p>
      {state.status === "failed" ? (
        <button type="button" className="button-secondary" onClick={onRetry}>
          {t("console.visit.retry")}
        </button>
      ) : null}
    </div>
  );
}

/**
 * The visit's SOAP notes, saved as the clinician types (notes-autosave.ts); without scripts a plain
 * form with a save button. `initialText` is what the clinician typed when a save without scripts was
 * refused; `initialLatest` the newer notes it ran into. `autosaveRef` lets the page save what is
 * typed before signing.
 */
export function SoapNotesEditor({
  consultationId,
  notes,
  initialText,
  initialLatest,
  autosaveRef,
}: {
  consultationId: string;
  notes: VisitNotes;
  initialText?: SoapText | undefined;
  initialLatest?: VisitNotes | undefined;
  autosaveRef: MutableRefObject<NotesAutosave | null>;
}) {
  const { t } = useTranslation();
  const formId = useId();
  const hydrated = useHydrated();
  const [text, setText] = useState<SoapText>(() => initialText ?? soapTextOf(notes));
  const [state, setState] = useState<AutosaveState>({
    status: initialLatest ? "stale" : "idle",
    savedAt: notes.updated_at,
    latest: initialLatest ?? null,
  });
  const autosave = useRef<NotesAutosave | null>(null);
  // The editor's own copy of the text is the truth while it is open: the loader's later reads (after
  // a chat message or a step) must not overwrite what is being typed.
  // biome-ignore lint/correctness/useExhaustiveDependencies: one autosave per visit, from the first read.
  useEffect(() => {
    const created = createNotesAutosave({
      initial: initialLatest ?? notes,
      delayMs: NOTES_AUTOSAVE_DELAY_MS,
      onState: setState,
      save: (value, version) => saveNotes(consultationId, value, version),
    });
    if (initialText) created.change(initialText);
    autosave.current = created;
    autosaveRef.current = created;
    return () => {
      created.dispose();
      autosaveRef.current = null;
    };
  }, [consultationId]);

  const change = (part: (typeof SOAP_PARTS)[number], value: string) => {
    const next = { ...text, [part]: value };
    setText(next);
    autosave.current?.change(next);
  };
  const latest = state.status === "stale" ? state.latest : null;

  return (
    <Form
      method="post"
      className="flex flex-col gap-4"
      onSubmit={(event) => {
        // With scripts the button saves through the autosave, on the version it holds.
        if (!autosave.current) return;
        event.preventDefault();
        void autosave.current.flush();
      }}
    >
      <input type="hidden" name="intent" value="notes" />
      <input type="hidden" name="version" value={latest?.version ?? notes.version} />
      <p className="text-ink-muted">{t("console.visit.notesHint")}</p>
      {latest ? (
        <div
          role="alert"
          className="flex flex-col gap-2 rounded-md border-danger border-l-4 bg-surface-muted px-4 py-3"
          data-testid="notes-stale"
        >
          <p className="font-semibold text-ink">{t("console.visit.staleHeading")}</p>
          <p className="text-ink">{t("console.visit.staleExplain")}</p>
          {hydrated ? (
            <div className="flex flex-wrap gap-3">
              <button
                type="button"
                className="button-primary"
                onClick={() => void autosave.current?.keepMine()}
              >
                {t("console.visit.keepMine")}
              </button>
              <button
                type="button"
                className="button-secondary"
                onClick={() => {
                  const newer = autosave.current?.takeNewer();
                  if (newer) setText(newer);
                }}
              >
                {t("console.visit.takeNewer")}
              </button>
            </div>
          ) : null}
        </div>
      ) : null}
      {SOAP_PARTS.map((part) => {
        const id = `${formId}-${part}`;
        const newerId = `${id}-newer`;
        return (
          <div key={part} className="flex flex-col gap-1">
            <label htmlFor={id} className="font-semibold text-ink">
              {t(`console.visit.soap.${part}`)}
            </label>
            <textarea
              id={id}
              name={part}
              rows={4}
              maxLength={VISIT_NOTE_MAX_LENGTH}
              value={text[part]}
              onChange={(event) => change(part, event.currentTarget.value)}
              aria-describedby={latest && latest[part] !== text[part] ? newerId : undefined}
              className="w-full rounded-md border border-border bg-surface px-3 py-2 text-ink"
            />
            {latest && latest[part] !== text[part] ? (
              <div id={newerId} className="rounded-md border border-border px-3 py-2">
                <p className="font-semibold text-ink-muted text-sm">{t("console.visit.newerText")}</p>
                <p className="whitespace-pre-line break-words text-ink">{latest[part] || "—"}</p>
              </div>
            ) : null}
          </div>
        );
      })}
      <div className="flex flex-wrap items-center gap-4">
        <button type="submit" className="button-secondary">
          {t("console.visit.saveNotes")}
        </button>
        <SaveState state={state} onRetry={() => void autosave.current?.flush()} />
      </div>
    </Form>
  );
}
