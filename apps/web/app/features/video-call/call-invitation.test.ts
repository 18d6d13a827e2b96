import { describe, expect, it } from "vitest";
import { callInvitation, joinedBefore, rememberJoined } from "./call-invitation.ts";

function memoryStorage() {
  const values = new Map<string, string>();
  return {
    getItem: (key: string) => values.get(key) ?? null,
    setItem: (k: string, v: string) => void values.set(k, v),
  };
}

describe("the waiting room's call invitation", () => {
  it("rings when the ring arrives", () => {
    expect(callInvitation({ status: "accepted", ringing: true, joinedBefore: false })).toBe("calling");
  });

  it("asks to join a call under way that this tab never joined: the ring came before the page connected", () => {
    expect(callInvitation({ status: "in_progress", ringing: false, joinedBefore: false })).toBe("calling");
  });

  it("offers to rejoin only to a tab that joined before", () => {
    expect(callInvitation({ status: "in_progress", ringing: false, joinedBefore: true })).toBe("underWay");
  });

  it("says nothing before the call and after the visit", () => {
    for (const status of ["requested", "accepted", "completed", "canceled"] as const)
      expect(callInvitation({ status, ringing: false, joinedBefore: true })).toBe("none");
  });

  it("remembers per visit that this tab joined", () => {
    const storage = memoryStorage();
    expect(joinedBefore("visit-1", storage)).toBe(false);
    rememberJoined("visit-1", storage);
    expect(joinedBefore("visit-1", storage)).toBe(true);
    expect(joinedBefore("visit-2", storage)).toBe(false);
    expect(joinedBefore("visit-1", null)).toBe(false);
  });
});
