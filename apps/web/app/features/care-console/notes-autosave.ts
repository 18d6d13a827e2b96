import { SOAP_PARTS, type SoapPart, type VisitNotes } from "@ambercare/contracts/console";

/**
 * The SOAP notes' save-as-you-type, apart from React so its rules can be tested: a save this long
 * after the last keystroke, one save at a time (what is typed meanwhile is saved right after), each
 * on the version the last save returned. A save refused as stale stops saving and keeps both texts:
 * the clinician's in the fields, the newer one beside them, until the clinician keeps theirs (saved
 * over the newer version) or takes the newer. Nothing typed is dropped by any of these steps.
 */

export type SoapText = Record<SoapPart, string>;

export type SaveOutcome =
  | { kind: "saved"; notes: VisitNotes }
  | { kind: "stale"; latest: VisitNotes }
  | { kind: "signed" }
  | { kind: "failed" };

export type AutosaveStatus = "idle" | "pending" | "saving" | "saved" | "failed" | "stale" | "signed";

export type AutosaveState = {
  status: AutosaveStatus;
  /** When the text now saved was saved (ISO), from the API. */
  savedAt: string | null;
  /** The newer saved notes that a stale save ran into. */
  latest: VisitNotes | null;
};

export type Timers = {
  set: (run: () => void, ms: number) => unknown;
  clear: (handle: unknown) => void;
};

export const soapTextOf = (notes: Pick<VisitNotes, SoapPart>): SoapText =>
  Object.fromEntries(SOAP_PARTS.map((part) => [part, notes[part]])) as SoapText;

const sameText = (a: SoapText, b: SoapText) => SOAP_PARTS.every((part) => a[part] === b[part]);

export function createNotesAutosave(options: {
  initial: VisitNotes;
  save: (text: SoapText, version: number) => Promise<SaveOutcome>;
  delayMs: number;
  onState: (state: AutosaveState) => void;
  timers?: Timers;
}) {
  const timers: Timers = options.timers ?? {
    set: (run, ms) => setTimeout(run, ms),
    clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  };
  let version = options.initial.version;
  let saved = soapTextOf(options.initial);
  let current = saved;
  let state: AutosaveState = { status: "idle", savedAt: options.initial.updated_at, latest: null };
  let timer: unknown = null;
  let inFlight: Promise<void> | undefined;

  const set = (next: Partial<AutosaveState>) => {
    state = { ...state, ...next };
    options.onState(state);
  };
  const halted = () => state.status === "stale" || state.status === "signed";
  const cancelTimer = () => {
    if (timer !== null) timers.clear(timer);
    timer = null;
  };

  async function saveOnce(): Promise<void> {
    const text = current;
    set({ status: "saving" });
    let outcome: SaveOutcome;
    try {
      outcome = await options.save(text, version);
    } catch {
      outcome = { kind: "failed" };
    }
    switch (outcome.kind) {
      case "saved":
        version = outcome.notes.version;
        saved = text;
        set({ status: sameText(current, saved) ? "saved" : "pending", savedAt: outcome.notes.updated_at });
        break;
      case "stale":
        set({ status: "stale", latest: outcome.latest });
        break;
      case "signed":
        set({ status: "signed" });
        break;
      case "failed":
        set({ status: "failed" });
        break;
    }
  }

  /** Saves until what is saved is what is typed, or a save fails or is refused. */
  function run(): Promise<void> {
    cancelTimer();
    if (inFlight !== undefined) return inFlight;
    inFlight = (async () => {
      while (!halted() && !sameText(current, saved)) {
        await saveOnce();
        if (state.status !== "pending") break;
      }
    })().finally(() => {
      inFlight = undefined;
    });
    return inFlight;
  }

  async function flush(): Promise<boolean> {
    await run();
    return !halted() && sameText(current, saved);
  }

  return {
    /** The text as typed now; saved after the delay without further typing. */
    change(text: SoapText) {
      current = text;
      if (halted()) return;
      if (sameText(current, saved)) {
        cancelTimer();
        if (inFlight === undefined) set({ status: state.savedAt ? "saved" : "idle" });
        return;
      }
      if (inFlight === undefined) set({ status: "pending" });
      cancelTimer();
      timer = timers.set(() => void run(), options.delayMs);
    },
    /** Saves now (a retry, or before signing); true when everything typed is saved. */
    flush,
    /** After a stale save: the clinician's text wins, saved over the newer version. */
    async keepMine(): Promise<boolean> {
      if (state.status !== "stale" || !state.latest) return false;
      version = state.latest.version;
      saved = soapTextOf(state.latest);
      set({ status: "pending", latest: null });
      return flush();
    },
    /** After a stale save: the newer text replaces the clinician's; returns it for the fields. */
    takeNewer(): SoapText | null {
      if (state.status !== "stale" || !state.latest) return null;
      const latest = state.latest;
      version = latest.version;
      saved = soapTextOf(latest);
      current = saved;
      set({ status: "saved", latest: null, savedAt: latest.updated_at });
      return saved;
    },
    dirty: () => !sameText(current, saved),
    state: () => state,
    dispose: cancelTimer,
  };
}

export type NotesAutosave = ReturnType<typeof createNotesAutosave>;
