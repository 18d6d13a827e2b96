import type { Message } from "@ambercare/contracts/consultation";
import { describe, expect, it } from "vitest";
import {
  applyReceipt,
  lastSeq,
  mergeMessages,
  type OutboxItem,
  outboxKey,
  readOutbox,
  unacknowledgedUpTo,
  writeOutbox,
} from "#app/features/visit-chat/visit-chat-thread.ts";

const message = (seq: number, author: Message["author"], fields: Partial<Message> = {}): Message => ({
  id: `00000000-0000-4000-8000-00000000000${seq}`,
  consultation_id: "11111111-1111-4111-8111-111111111111",
  seq,
  client_id: null,
  author,
  body: `message ${seq}`,
  created_at: "2026-03-10T15:00:00.000Z",
  delivered_at: null,
  read_at: null,
  retracted_at: null,
  attachments: [],
  ...fields,
});

function memoryStore() {
  const values = new Map<string, string>();
  return {
    values,
    getItem: (key: string) => values.get(key) ?? null,
    setItem: (key: string, value: string) => void values.set(key, value),
    removeItem: (key: string) => void values.delete(key),
  };
}

describe("the chat thread", () => {
  it("keeps one copy of each message, the newer one, in the server's order", () => {
    const thread = mergeMessages(
      [message(2, "patient"), message(1, "provider")],
      [message(3, "provider"), message(2, "patient", { retracted_at: "2026-03-10T15:05:00.000Z" })],
    );
    expect(thread.map((m) => m.seq)).toEqual([1, 2, 3]);
    expect(thread[1]?.retracted_at).toBe("2026-03-10T15:05:00.000Z");
    expect(lastSeq(thread)).toBe(3);
    expect(lastSeq([])).toBe(0);
  });

  it("never takes back a receipt or a retraction when an older copy of the message arrives", () => {
    const read = { delivered_at: "2026-03-10T15:01:00.000Z", read_at: "2026-03-10T15:02:00.000Z" };
    const retracted = { retracted_at: "2026-03-10T15:05:00.000Z", body: "" };
    const shown = [message(1, "provider", read), message(2, "patient", retracted)];
    const stale = [message(1, "provider"), message(2, "patient"), message(3, "provider")];
    const thread = mergeMessages(shown, stale);
    expect(thread[0]).toMatchObject(read);
    expect(thread[1]).toMatchObject(retracted);
    expect(thread.map((m) => m.seq)).toEqual([1, 2, 3]);
    // A newer copy still brings what changed: a message delivered earlier is now read.
    const delivered = mergeMessages(
      [message(3, "provider", { delivered_at: "x" })],
      [message(3, "provider", read)],
    );
    expect(delivered[0]).toMatchObject(read);
  });

  it("acknowledges only the other side's messages, up to the newest without the receipt", () => {
    const thread = [
      message(1, "provider", { read_at: "x", delivered_at: "x" }),
      message(2, "patient"),
      message(3, "provider"),
      message(4, "system"),
    ];
    expect(unacknowledgedUpTo(thread, "patient", "read")).toBe(3);
    expect(unacknowledgedUpTo(thread, "clinician", "delivered")).toBe(2);
    expect(unacknowledgedUpTo(thread.slice(0, 1), "patient", "read")).toBeNull();
  });

  it("marks this side's own messages with the other side's receipt; read implies delivered", () => {
    const thread = applyReceipt(
      [message(1, "patient"), message(2, "provider"), message(3, "patient")],
      "patient",
      "read",
      2,
      "t",
    );
    expect(thread.map((m) => [m.seq, m.delivered_at, m.read_at])).toEqual([
      [1, "t", "t"],
      [2, null, null],
      [3, null, null],
    ]);
  });
});

describe("the outbox", () => {
  it("is kept per side and visit, survives a reload, and ignores what it cannot read", () => {
    const store = memoryStore();
    const key = outboxKey("patient", "c1");
    const item: OutboxItem = { client_id: "a", body: "Since Sunday.", attachments: [], created_at: "t" };
    writeOutbox(store, key, [item]);
    expect(readOutbox(store, key)).toEqual([item]);
    expect(readOutbox(store, outboxKey("clinician", "c1"))).toEqual([]);
    writeOutbox(store, key, []);
    expect(store.values.has(key)).toBe(false);
    store.setItem(key, "{not json");
    expect(readOutbox(store, key)).toEqual([]);
    store.setItem(key, JSON.stringify([{ body: "no id" }, item]));
    expect(readOutbox(store, key)).toEqual([item]);
    expect(readOutbox(null, key)).toEqual([]);
  });
});
