import type { VisitNotes } from "@ambercare/contracts/console";
import { describe, expect, it } from "vitest";
import {
  type AutosaveState,
  createNotesAutosave,
  type SaveOutcome,
  type SoapText,
} from "#app/features/care-console/notes-autosave.ts";

const EMPTY: SoapText = { subjective: "", objective: "", assessment: "", plan: "" };

const notes = (text: Partial<SoapText>, version: number): VisitNotes => ({
  ...EMPTY,
  ...text,
  version,
  updated_at: version === 0 ? null : `2026-11-24T14:0${version}:00.000Z`,
  signed_at: null,
  addenda: [],
});

/** Timers run by hand; a save answered when the test says so. */
function harness(initial = notes({}, 0)) {
  const pendingTimers: Array<() => void> = [];
  const saves: Array<{ text: SoapText; version: number; answer: (outcome: SaveOutcome) => void }> = [];
  const states: AutosaveState[] = [];
  const autosave = createNotesAutosave({
    initial,
    delayMs: 800,
    onState: (state) => states.push(state),
    save: (text, version) => new Promise((resolve) => saves.push({ text, version, answer: resolve })),
    timers: {
      set: (run) => pendingTimers.push(run),
      clear: () => pendingTimers.splice(0),
    },
  });
  const tick = () => {
    for (const run of pendingTimers.splice(0)) run();
  };
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
  return { autosave, saves, states, tick, settle, last: () => states.at(-1) };
}

describe("the notes' save as the clinician types", () => {
  it("saves after the pause, not on each keystroke, on the version it read", async () => {
    const h = harness(notes({ subjective: "Cough" }, 3));
    h.autosave.change({ ...EMPTY, subjective: "Cough, 3" });
    h.autosave.change({ ...EMPTY, subjective: "Cough, 3 days" });
    expect(h.last()?.status).toBe("pending");
    expect(h.saves).toHaveLength(0);
    h.tick();
    expect(h.saves.map((save) => [save.text.subjective, save.version])).toEqual([["Cough, 3 days", 3]]);
    expect(h.last()?.status).toBe("saving");
    h.saves[0]!.answer({ kind: "saved", notes: notes({ subjective: "Cough, 3 days" }, 4) });
    await h.settle();
    expect(h.last()).toMatchObject({ status: "saved", savedAt: "2026-11-24T14:04:00.000Z" });
  });

  it("saves what was typed during a save right after it, on the new version", async () => {
    const h = harness();
    h.autosave.change({ ...EMPTY, plan: "Rest" });
    h.tick();
    h.autosave.change({ ...EMPTY, plan: "Rest, fluids" });
    h.saves[0]!.answer({ kind: "saved", notes: notes({ plan: "Rest" }, 1) });
    await h.settle();
    expect(h.saves.map((save) => [save.text.plan, save.version])).toEqual([
      ["Rest", 0],
      ["Rest, fluids", 1],
    ]);
    h.saves[1]!.answer({ kind: "saved", notes: notes({ plan: "Rest, fluids" }, 2) });
    await h.settle();
    expect(h.last()?.status).toBe("saved");
    expect(h.autosave.dirty()).toBe(false);
  });

  it("says a failed save is not saved, and a retry saves the same text", async () => {
    const h = harness();
    h.autosave.change({ ...EMPTY, objective: "38.2 °C" });
    h.tick();
    h.saves[0]!.answer({ kind: "failed" });
    await h.settle();
    expect(h.last()?.status).toBe("failed");
    expect(h.autosave.dirty()).toBe(true);
    const retried = h.autosave.flush();
    h.saves[1]!.answer({ kind: "saved", notes: notes({ objective: "38.2 °C" }, 1) });
    expect(await retried).toBe(true);
    expect(h.saves[1]!.text.objective).toBe("38.2 °C");
  });

  it("stops on a stale save with both texts kept; keeping mine saves it over the newer version", async () => {
    const h = harness(notes({ assessment: "Viral" }, 2));
    h.autosave.change({ ...EMPTY, assessment: "Viral cough" });
    h.tick();
    const newer = notes({ assessment: "Bronchitis" }, 5);
    h.saves[0]!.answer({ kind: "stale", latest: newer });
    await h.settle();
    expect(h.last()).toMatchObject({ status: "stale", latest: newer });
    // Typing on does not save over the newer text by itself.
    h.autosave.change({ ...EMPTY, assessment: "Viral cough, mild" });
    h.tick();
    expect(h.saves).toHaveLength(1);
    const kept = h.autosave.keepMine();
    expect(h.saves[1]).toMatchObject({ version: 5, text: { assessment: "Viral cough, mild" } });
    h.saves[1]!.answer({ kind: "saved", notes: notes({ assessment: "Viral cough, mild" }, 6) });
    expect(await kept).toBe(true);
    expect(h.last()).toMatchObject({ status: "saved", latest: null });
  });

  it("takes the newer text when asked, and saves later typing on its version", async () => {
    const h = harness();
    h.autosave.change({ ...EMPTY, plan: "Mine" });
    h.tick();
    h.saves[0]!.answer({ kind: "stale", latest: notes({ plan: "Theirs" }, 7) });
    await h.settle();
    expect(h.autosave.takeNewer()).toEqual({ ...EMPTY, plan: "Theirs" });
    expect(h.last()?.status).toBe("saved");
    h.autosave.change({ ...EMPTY, plan: "Theirs, and mine" });
    h.tick();
    expect(h.saves[1]).toMatchObject({ version: 7, text: { plan: "Theirs, and mine" } });
  });

  it("stops for good once the notes are signed", async () => {
    const h = harness();
    h.autosave.change({ ...EMPTY, plan: "Late" });
    h.tick();
    h.saves[0]!.answer({ kind: "signed" });
    await h.settle();
    expect(h.last()?.status).toBe("signed");
    expect(await h.autosave.flush()).toBe(false);
    expect(h.saves).toHaveLength(1);
  });

  it("does not save text that is back to what is saved", () => {
    const h = harness(notes({ plan: "Same" }, 1));
    h.autosave.change({ ...EMPTY, plan: "Same!" });
    h.autosave.change({ ...EMPTY, plan: "Same" });
    h.tick();
    expect(h.saves).toHaveLength(0);
    expect(h.last()?.status).toBe("saved");
  });
});
