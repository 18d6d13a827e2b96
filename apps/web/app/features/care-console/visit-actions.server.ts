import { SOAP_PARTS, VISIT_NOTE_MAX_LENGTH, type VisitNotes } from "@ambercare/contracts/console";
import { CANCEL_REASON_MAX_LENGTH, VISIT_SUMMARY_MAX_LENGTH } from "@ambercare/contracts/consultation-limits";
import { isApiError } from "#app/lib/api-client.server.ts";
import { describeApiError } from "#app/lib/api-errors.ts";
import type { FormMessage } from "#app/lib/forms.ts";
import type { TranslationKey } from "#app/lib/i18n.tsx";
import type { ConsoleApi } from "./console.server.ts";
import type { SoapText } from "./notes-autosave.ts";

/** A form of the workspace, answered: what to say, and what the clinician typed when it failed. */
export type VisitActionResult = {
  status: number;
  ok: boolean;
  message: FormMessage;
  /** Which form it answers, so the page shows the message and the kept text beside that form. */
  form: "start" | "call" | "cancel" | "notes" | "complete" | "addendum";
  /** The text the clinician typed in that form, given back when it was not taken. */
  typed?: { reason?: string; summary?: string; addendum?: string; notes?: SoapText };
  /** A notes save that ran into newer notes: the newer text, shown beside the clinician's. */
  latest?: VisitNotes;
  /** The notes as saved, after a save. */
  notes?: VisitNotes;
  /** The API's code of a refusal (NOTES_STALE, NOTES_SIGNED…). */
  code?: string;
};

const tooLong = (max: number): FormMessage => ({ key: "forms.errors.tooLong", values: { max } });

export const soapTextFromForm = (form: FormData): SoapText =>
  Object.fromEntries(SOAP_PARTS.map((part) => [part, String(form.get(part) ?? "")])) as SoapText;

/**
 * The workspace's forms, each with its `intent`: start, call (a video visit's call: starts an
 * accepted visit and rings the patient's waiting room), cancel (reason), notes (the four parts and
 * the version they were based on: the way without scripts), complete (summary and the signing
 * confirmation) and addendum (body). A refusal keeps what was typed; a stale notes save answers
 * with the newer notes so both texts can be shown.
 */
export async function runVisitAction(
  api: Pick<
    ConsoleApi,
    "start" | "startCall" | "cancel" | "complete" | "saveNotes" | "addAddendum" | "workspace"
  >,
  id: string,
  form: FormData,
): Promise<VisitActionResult> {
  const field = (name: string) => String(form.get(name) ?? "");
  type Which = VisitActionResult["form"];
  type Typed = VisitActionResult["typed"];
  const invalid = (which: Which, message: FormMessage, typed: Typed): VisitActionResult => ({
    status: 400,
    ok: false,
    message,
    form: which,
    typed,
  });
  /** Runs one call; a refusal keeps what was typed, and a stale save brings the newer notes. */
  const attempt = async (
    which: Which,
    typed: Typed,
    run: () => Promise<Partial<VisitActionResult>>,
    done: { key: TranslationKey; status?: number },
  ): Promise<VisitActionResult> => {
    try {
      const extra = await run();
      return { status: done.status ?? 200, ok: true, message: { key: done.key }, form: which, ...extra };
    } catch (error) {
      if (!isApiError(error) || error.status >= 500 || error.status === 0) throw error;
      const { message } = describeApiError(error, { fallback: { key: "console.queue.failed" } });
      const result: VisitActionResult = { status: error.status, ok: false, message, form: which, typed };
      if (error.code) result.code = error.code;
      if (error.code === "NOTES_STALE") result.latest = (await api.workspace(id)).notes;
      return result;
    }
  };

  switch (field("intent")) {
    case "start":
      return attempt(
        "start",
        {},
        async () => {
          await api.start(id);
          return {};
        },
        {
          key: "console.visit.started",
        },
      );
    case "call":
      return attempt(
        "call",
        {},
        async () => {
          await api.startCall(id);
          return {};
        },
        { key: "videoCall.started" },
      );
    case "cancel": {
      const reason = field("reason");
      const problem = textProblem(reason, CANCEL_REASON_MAX_LENGTH, "console.visit.reasonRequired");
      if (problem) return invalid("cancel", problem, { reason });
      return attempt(
        "cancel",
        { reason },
        async () => {
          await api.cancel(id, reason.trim());
          return {};
        },
        {
          key: "console.visit.canceled",
        },
      );
    }
    case "notes": {
      const notes = soapTextFromForm(form);
      const version = Number(field("version"));
      if (!Number.isInteger(version) || version < 0) {
        return invalid("notes", { key: "console.queue.failed" }, { notes });
      }
      if (SOAP_PARTS.some((part) => notes[part].length > VISIT_NOTE_MAX_LENGTH)) {
        return invalid("notes", tooLong(VISIT_NOTE_MAX_LENGTH), { notes });
      }
      return attempt(
        "notes",
        { notes },
        async () => ({ notes: await api.saveNotes(id, { ...notes, version }) }),
        {
          key: "console.visit.notesSaved",
        },
      );
    }
    case "complete": {
      const summary = field("summary");
      const problem =
        textProblem(summary, VISIT_SUMMARY_MAX_LENGTH, "console.visit.summaryRequired") ??
        (field("confirm") === "on" ? null : ({ key: "console.visit.confirmRequired" } as const));
      if (problem) return invalid("complete", problem, { summary });
      return attempt(
        "complete",
        { summary },
        async () => {
          await api.complete(id, summary.trim());
          return {};
        },
        {
          key: "console.visit.completed",
        },
      );
    }
    case "addendum": {
      const addendum = field("body");
      const problem = textProblem(addendum, VISIT_NOTE_MAX_LENGTH, "console.visit.addendumRequired");
      if (problem) return invalid("addendum", problem, { addendum });
      return attempt(
        "addendum",
        { addendum },
        async () => {
          await api.addAddendum(id, addendum);
          return {};
        },
        {
          key: "console.visit.addendumAdded",
          status: 201,
        },
      );
    }
  }
  return invalid("start", { key: "console.queue.failed" }, {});
}

/** Why a required text cannot be sent: empty (the form's own message) or longer than `max`. */
function textProblem(value: string, max: number, emptyKey: TranslationKey): FormMessage | null {
  if (value.trim() === "") return { key: emptyKey };
  if (value.length > max) return tooLong(max);
  return null;
}
