import type { VisitNotes } from "@ambercare/contracts/console";
import { describe, expect, it } from "vitest";
import { apiRefusal, formOf } from "#app/features/care-console/console-test-support.ts";
import { runVisitAction } from "#app/features/care-console/visit-actions.server.ts";
import { ApiError } from "#app/lib/api-client.server.ts";

const ID = "0b7c7f9e-3f4a-4c55-9a43-0d8f6e1f2a11";
const NOTES: VisitNotes = {
  subjective: "Cough",
  objective: "",
  assessment: "",
  plan: "",
  version: 4,
  updated_at: "2026-11-24T14:02:00.000Z",
  signed_at: null,
  addenda: [],
};

/** A console API that records its calls and fails with `failure` when given. */
function fakeApi(failure?: ApiError) {
  const calls: unknown[] = [];
  const step =
    (name: string) =>
    async (...args: unknown[]) => {
      calls.push([name, ...args]);
      if (failure) throw failure;
      return (name === "saveNotes" || name === "addAddendum" ? NOTES : {}) as never;
    };
  return {
    calls,
    api: {
      start: step("start"),
      startCall: step("startCall"),
      cancel: step("cancel"),
      complete: step("complete"),
      saveNotes: step("saveNotes"),
      addAddendum: step("addAddendum"),
      workspace: async () => ({ notes: { ...NOTES, subjective: "Newer", version: 9 } }) as never,
    },
  };
}

describe("the workspace's forms", () => {
  it("start a video visit's call, and keep the API's refusal of a visit whose call is not open", async () => {
    const { api, calls } = fakeApi();
    expect(await runVisitAction(api, ID, formOf({ intent: "call" }))).toEqual({
      status: 200,
      ok: true,
      form: "call",
      message: { key: "videoCall.started" },
    });
    expect(calls).toEqual([["startCall", ID]]);
    const closed = fakeApi(apiRefusal(409, "CALL_NOT_OPEN"));
    expect(await runVisitAction(closed.api, ID, formOf({ intent: "call" }))).toMatchObject({
      status: 409,
      ok: false,
      form: "call",
      code: "CALL_NOT_OPEN",
    });
  });

  it("start, cancel with a reason, add an addendum and complete with the summary and the confirmation", async () => {
    const { api, calls } = fakeApi();
    expect(await runVisitAction(api, ID, formOf({ intent: "start" }))).toMatchObject({
      ok: true,
      form: "start",
    });
    expect(
      await runVisitAction(api, ID, formOf({ intent: "cancel", reason: " No longer needed " })),
    ).toMatchObject({
      ok: true,
      message: { key: "console.visit.canceled" },
    });
    expect(
      await runVisitAction(
        api,
        ID,
        formOf({ intent: "complete", summary: "Rest and fluids.", confirm: "on" }),
      ),
    ).toMatchObject({ ok: true, form: "complete" });
    expect(
      await runVisitAction(api, ID, formOf({ intent: "addendum", body: "Lab result normal." })),
    ).toMatchObject({
      ok: true,
      status: 201,
    });
    expect(calls).toEqual([
      ["start", ID],
      ["cancel", ID, "No longer needed"],
      ["complete", ID, "Rest and fluids."],
      ["addAddendum", ID, "Lab result normal."],
    ]);
  });

  it("refuse an empty reason, summary or addendum and an unconfirmed signature, keeping the text, without calling the API", async () => {
    const { api, calls } = fakeApi();
    expect(await runVisitAction(api, ID, formOf({ intent: "cancel", reason: "  " }))).toMatchObject({
      status: 400,
      message: { key: "console.visit.reasonRequired" },
      typed: { reason: "  " },
    });
    expect(
      await runVisitAction(api, ID, formOf({ intent: "complete", summary: "", confirm: "on" })),
    ).toMatchObject({
      message: { key: "console.visit.summaryRequired" },
    });
    expect(await runVisitAction(api, ID, formOf({ intent: "complete", summary: "All good." }))).toMatchObject(
      {
        status: 400,
        message: { key: "console.visit.confirmRequired" },
        typed: { summary: "All good." },
      },
    );
    expect(await runVisitAction(api, ID, formOf({ intent: "addendum", body: "" }))).toMatchObject({
      message: { key: "console.visit.addendumRequired" },
    });
    expect(
      await runVisitAction(api, ID, formOf({ intent: "notes", ...NOTES, version: "-1" } as never)),
    ).toMatchObject({
      status: 400,
    });
    expect(calls).toEqual([]);
  });

  it("save the notes on the version they were based on and answer with the saved notes", async () => {
    const { api, calls } = fakeApi();
    const saved = await runVisitAction(
      api,
      ID,
      formOf({ intent: "notes", subjective: "Cough", objective: "", assessment: "", plan: "", version: "3" }),
    );
    expect(saved).toMatchObject({ ok: true, notes: NOTES });
    expect(calls).toEqual([
      ["saveNotes", ID, { subjective: "Cough", objective: "", assessment: "", plan: "", version: 3 }],
    ]);
  });

  it("answer a stale notes save with the newer notes and what the clinician typed", async () => {
    const { api } = fakeApi(apiRefusal(409, "NOTES_STALE"));
    const typed = { subjective: "Mine", objective: "", assessment: "", plan: "" };
    expect(await runVisitAction(api, ID, formOf({ intent: "notes", ...typed, version: "3" }))).toMatchObject({
      status: 409,
      ok: false,
      code: "NOTES_STALE",
      message: { key: "console.notes.stale" },
      typed: { notes: typed },
      latest: { subjective: "Newer", version: 9 },
    });
  });

  it("translate other refusals by their code and leave an outage to the error page", async () => {
    const signed = fakeApi(apiRefusal(409, "NOTES_SIGNED"));
    expect(
      await runVisitAction(signed.api, ID, formOf({ intent: "complete", summary: "x", confirm: "on" })),
    ).toMatchObject({ code: "NOTES_SIGNED", message: { key: "console.notes.signedAlready" } });
    const down = fakeApi(apiRefusal(502));
    await expect(runVisitAction(down.api, ID, formOf({ intent: "start" }))).rejects.toBeInstanceOf(ApiError);
  });
});
