import { describe, expect, it } from "vitest";
import { concernsWorkspace, WORKSPACE_TOPICS } from "./workspace-events.ts";

describe("what the visit workspace reads itself again for", () => {
  const visit = "8b7e0a53-5a0c-4d8e-9a55-0b7b9c1f2a10";
  it("listens to the visit's status and its chat", () => {
    expect(WORKSPACE_TOPICS).toEqual(["visit.status", "visit.message"]);
  });

  it("reads again when the visit changes or a message brings files, not for other messages or visits", () => {
    expect(concernsWorkspace({ topic: "visit.status", payload: { consultation_id: visit } }, visit)).toBe(
      true,
    );
    const message = (payload: Record<string, unknown>) =>
      concernsWorkspace({ topic: "visit.message", payload: { consultation_id: visit, ...payload } }, visit);
    expect(message({ change: "created", attachments: 1 })).toBe(true);
    expect(message({ change: "created" })).toBe(false);
    expect(message({ change: "retracted" })).toBe(false);
    expect(
      concernsWorkspace(
        { topic: "visit.message", payload: { consultation_id: "other", attachments: 2 } },
        visit,
      ),
    ).toBe(false);
  });
});
