import { describe, expect, it } from "vitest";
import { apiRefusal, formOf } from "#app/features/care-console/console-test-support.ts";
import { runQueueAction } from "#app/features/care-console/queue-actions.server.ts";
import { ApiError } from "#app/lib/api-client.server.ts";

const ID = "0b7c7f9e-3f4a-4c55-9a43-0d8f6e1f2a11";

function fakeApi(failure?: ApiError) {
  const calls: string[] = [];
  return {
    calls,
    api: {
      async accept(id: string) {
        calls.push(`accept ${id}`);
        if (failure) throw failure;
        return {} as never;
      },
      async setDuty(onDuty: boolean) {
        calls.push(`duty ${onDuty}`);
        if (failure) throw failure;
        return { on_duty: onDuty, since: null, expected_wait_minutes: null };
      },
    },
  };
}

describe("the queue page's action", () => {
  it("switches duty on and off", async () => {
    const { api, calls } = fakeApi();
    expect(await runQueueAction(api, formOf({ intent: "duty", on_duty: "true" }))).toMatchObject({
      ok: true,
      message: { key: "console.duty.changedOn" },
    });
    expect(await runQueueAction(api, formOf({ intent: "duty", on_duty: "false" }))).toMatchObject({
      ok: true,
      message: { key: "console.duty.changedOff" },
    });
    expect(calls).toEqual(["duty true", "duty false"]);
  });

  it("opens the workspace of an accepted request", async () => {
    const { api, calls } = fakeApi();
    expect(await runQueueAction(api, formOf({ intent: "accept", id: ID }))).toEqual({
      kind: "accepted",
      visitId: ID,
    });
    expect(calls).toEqual([`accept ${ID}`]);
  });

  it("says plainly that a colleague took the request, with 409", async () => {
    const { api } = fakeApi(apiRefusal(409, "CONSULTATION_ALREADY_TAKEN"));
    expect(await runQueueAction(api, formOf({ intent: "accept", id: ID }))).toEqual({
      kind: "done",
      status: 409,
      ok: false,
      message: { key: "console.queue.taken" },
    });
  });

  it("translates another refusal by its code, and refuses a malformed form without calling the API", async () => {
    const { api } = fakeApi(apiRefusal(403, "CONSULTATION_NOT_IN_QUEUE"));
    expect(await runQueueAction(api, formOf({ intent: "accept", id: ID }))).toMatchObject({
      status: 403,
      message: { key: "apiErrors.consultationNotInQueue" },
    });
    const clean = fakeApi();
    expect(await runQueueAction(clean.api, formOf({ intent: "accept", id: "../x" }))).toMatchObject({
      status: 400,
      ok: false,
    });
    expect(await runQueueAction(clean.api, formOf({ intent: "other" }))).toMatchObject({ status: 400 });
    expect(clean.calls).toEqual([]);
  });

  it("leaves an outage of the API to the error page", async () => {
    const { api } = fakeApi(apiRefusal(503));
    await expect(runQueueAction(api, formOf({ intent: "accept", id: ID }))).rejects.toBeInstanceOf(ApiError);
  });
});
