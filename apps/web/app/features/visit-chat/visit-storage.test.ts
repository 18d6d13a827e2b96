import { describe, expect, it } from "vitest";
import { outboxKey } from "#app/features/visit-chat/visit-chat-thread.ts";
import { forgetVisitStorage } from "#app/lib/visit-storage.ts";

/** A Storage in memory, as the browser's behaves for these calls. */
function memoryStore(entries: Record<string, string>) {
  const map = new Map(Object.entries(entries));
  return {
    get length() {
      return map.size;
    },
    key: (index: number) => [...map.keys()][index] ?? null,
    removeItem: (key: string) => void map.delete(key),
    keys: () => [...map.keys()].sort(),
  };
}

describe("forgetting what the visit pages kept in the browser", () => {
  it("removes the chat's outbox, the summary draft and the call flag, and nothing else", () => {
    const local = memoryStore({
      [outboxKey("patient", "v1")]: '[{"client_id":"c","body":"My rash"}]',
      [outboxKey("clinician", "v2")]: "[]",
      "ambercare.video-devices": '{"videoInput":"cam"}',
      theme: "dark",
    });
    const session = memoryStore({
      "ambercare.visit-summary.v2": "A cold",
      "ambercare.call-joined.v1": "true",
      "ambercare.notSubscribedPopup.dismissed": "true",
    });
    expect(forgetVisitStorage([local, session, null])).toBe(4);
    expect(local.keys()).toEqual(["ambercare.video-devices", "theme"]);
    expect(session.keys()).toEqual(["ambercare.notSubscribedPopup.dismissed"]);
  });

  it("skips a store that refuses to be read", () => {
    const refusing = {
      get length(): number {
        throw new Error("SecurityError");
      },
      key: () => null,
      removeItem: () => undefined,
    };
    expect(forgetVisitStorage([refusing])).toBe(0);
  });
});
