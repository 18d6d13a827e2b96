import type { Message, MessageAttachment } from "@ambercare/contracts/consultation";

/** Whose page the chat is on: the patient's visit page or the clinician's console. */
export type ChatSide = "patient" | "clinician";

/** The thread's author value of each side's own messages. */
export const AUTHOR_OF: Record<ChatSide, Message["author"]> = { patient: "patient", clinician: "provider" };

/**
 * The thread with `incoming` folded in: one entry per message id, in the server's order. A receipt or
 * a retraction only ever moves forward: a copy read before it (a send's answer or a catch-up that was
 * under way when the receipt's event arrived) does not take it back.
 */
export function mergeMessages(current: readonly Message[], incoming: readonly Message[]): Message[] {
  const byId = new Map(current.map((message) => [message.id, message]));
  for (const message of incoming) {
    const shown = byId.get(message.id);
    if (shown?.retracted_at && !message.retracted_at) continue;
    byId.set(
      message.id,
      shown
        ? {
            ...message,
            delivered_at: message.delivered_at ?? shown.delivered_at,
            read_at: message.read_at ?? shown.read_at,
          }
        : message,
    );
  }
  return [...byId.values()].sort((a, b) => a.seq - b.seq);
}

/** The highest sequence number shown (0 for an empty thread): what a catch-up asks after. */
export function lastSeq(messages: readonly Message[]): number {
  return messages.reduce((highest, message) => Math.max(highest, message.seq), 0);
}

/** The other side's newest message that this side has not yet marked `receipt`, by sequence number. */
export function unacknowledgedUpTo(
  messages: readonly Message[],
  side: ChatSide,
  receipt: "delivered" | "read",
): number | null {
  let upTo: number | null = null;
  for (const message of messages) {
    if (message.author === AUTHOR_OF[side] || message.author === "system") continue;
    const at = receipt === "read" ? message.read_at : message.delivered_at;
    if (at === null) upTo = Math.max(upTo ?? 0, message.seq);
  }
  return upTo;
}

/**
 * The other side's receipt, applied to this side's messages without asking the API: every own
 * message up to `upToSeq` now carries it ("read" implies delivered).
 */
export function applyReceipt(
  messages: readonly Message[],
  side: ChatSide,
  receipt: "delivered" | "read",
  upToSeq: number,
  at: string,
): Message[] {
  return messages.map((message) => {
    if (message.author !== AUTHOR_OF[side] || message.seq > upToSeq) return message;
    return {
      ...message,
      delivered_at: message.delivered_at ?? at,
      read_at: receipt === "read" ? (message.read_at ?? at) : message.read_at,
    };
  });
}

/** A message written on this device and not yet stored by the API: its id is the client id. */
export type OutboxItem = {
  client_id: string;
  body: string;
  attachments: MessageAttachment[];
  created_at: string;
};

/** Where a visit's unsent messages wait, per side and visit, so a reload loses none of them. */
export const outboxKey = (side: ChatSide, consultationId: string) =>
  `ambercare.visit-chat.outbox.${side}.${consultationId}`;

type KeyValueStore = Pick<Storage, "getItem" | "setItem" | "removeItem">;

const isOutboxItem = (value: unknown): value is OutboxItem => {
  const item = value as Partial<OutboxItem> | null;
  return (
    typeof item === "object" &&
    item !== null &&
    typeof item.client_id === "string" &&
    typeof item.body === "string" &&
    typeof item.created_at === "string" &&
    Array.isArray(item.attachments)
  );
};

/** The visit's outbox as stored; anything unreadable (storage off, a broken entry) is an empty one. */
export function readOutbox(store: KeyValueStore | null, key: string): OutboxItem[] {
  try {
    const raw = store?.getItem(key);
    if (!raw) return [];
    const parsed: unknown = JSON.parse(raw);
    return Array.isArray(parsed) ? parsed.filter(isOutboxItem) : [];
  } catch {
    return [];
  }
}

export function writeOutbox(store: KeyValueStore | null, key: string, items: readonly OutboxItem[]): void {
  try {
    if (items.length === 0) store?.removeItem(key);
    else store?.setItem(key, JSON.stringify(items));
  } catch {
    // Storage full or switched off: the outbox still lives in the page until it is sent.
  }
}
