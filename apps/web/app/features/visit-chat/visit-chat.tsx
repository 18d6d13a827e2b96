import type { MedicalDocument, Message, MessageAttachment } from "@ambercare/contracts/consultation";
import {
  DOCUMENT_CONTENT_TYPES,
  MESSAGE_ATTACHMENTS_MAX,
  MESSAGE_MAX_LENGTH,
} from "@ambercare/contracts/consultation-limits";
import { VISIT_TYPING_TOPIC } from "@ambercare/contracts/live";
import { type FormEvent, type KeyboardEvent, useCallback, useEffect, useId, useRef, useState } from "react";
import { translateMessage } from "#app/components/forms.tsx";
import { type LiveEvent, sendLiveFrame, useLiveEvents } from "#app/features/live/use-live-events.ts";
import {
  AUTHOR_OF,
  applyReceipt,
  type ChatSide,
  lastSeq,
  mergeMessages,
  type OutboxItem,
  outboxKey,
  readOutbox,
  unacknowledgedUpTo,
  writeOutbox,
} from "#app/features/visit-chat/visit-chat-thread.ts";
import { createDataReader, type DataReader, type ReadCause } from "#app/lib/data-cache.ts";
import { useDateTime } from "#app/lib/date-time.ts";
import type { FormMessage } from "#app/lib/forms.ts";
import { useTranslation } from "#app/lib/i18n.tsx";

export type VisitChatProps = {
  consultationId: string;
  /** Whose page it is: the visit's patient or the clinician who accepted it. */
  side: ChatSide;
  /** The thread as the page's loader read it (shown before scripts run, and without them). */
  initialMessages: Message[];
  /** Whether the visit's thread takes messages now; the API decides in the end (409 otherwise). */
  open: boolean;
  /** What to say instead of the composer when the thread is not open. */
  closedNotice?: string | undefined;
  /** A message sent without scripts that the page's action refused: its text and why. */
  initialDraft?: string | undefined;
  initialError?: FormMessage | undefined;
};

const TOPICS = ["visit.message", "visit.receipt", VISIT_TYPING_TOPIC] as const;
/** How soon a receipt refused for a moment (429, 5xx) is sent again. */
const RECEIPT_RETRY_MS = 2_000;
/** How long "is typing" shows without news, and how often this side repeats that it types. */
const TYPING_SHOWN_MS = 6_000;
const TYPING_REPEAT_MS = 3_000;
const TYPING_IDLE_MS = 4_000;
/** A failed send is tried again after this long (and at once when the browser is back online). */
const RETRY_MS = 5_000;

const storage = (): Storage | null => {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
};

type ChatAnswer = { message?: Message; file?: MedicalDocument; messages?: Message[]; error?: FormMessage };

/**
 * A visit's chat, the same on the patient's visit page and in the clinician's console: the thread
 * in the server's order, new messages, receipts and the other side's typing over the live events,
 * sending through the site's `/visit-chat/:id` resource route (the web server holds the token).
 * Nothing typed is lost: a message waits in an outbox kept in this browser (per side and visit)
 * until the API has stored it, and is sent again with the same client id, which the API stores once.
 */
export function VisitChat({
  consultationId,
  side,
  initialMessages,
  open,
  closedNotice,
  initialDraft,
  initialError,
}: VisitChatProps) {
  const { t } = useTranslation();
  const when = useDateTime();
  const formId = useId();
  const base = `/visit-chat/${consultationId}`;
  const key = outboxKey(side, consultationId);

  const [messages, setMessages] = useState<Message[]>(() => mergeMessages([], initialMessages));
  const [outbox, setOutbox] = useState<OutboxItem[]>([]);
  const [draft, setDraft] = useState(initialDraft ?? "");
  const [attached, setAttached] = useState<MessageAttachment[]>([]);
  const [upload, setUpload] = useState<{ name: string; percent: number } | null>(null);
  const [error, setError] = useState<FormMessage | null>(initialError ?? null);
  const [announcement, setAnnouncement] = useState("");
  const [otherTyping, setOtherTyping] = useState(false);
  const [online, setOnline] = useState(true);
  const [scripted, setScripted] = useState(false);

  const messagesRef = useRef(messages);
  messagesRef.current = messages;
  const outboxRef = useRef(outbox);
  const flushing = useRef(false);
  const retryTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const typingTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const typingSentAt = useRef(0);
  const typingIdle = useRef<ReturnType<typeof setTimeout> | null>(null);
  const acknowledged = useRef({ delivered: 0, read: 0 });
  const threadRef = useRef<HTMLOListElement>(null);
  const visible = useRef(false);

  const authorName = useCallback(
    (author: Message["author"]) =>
      author === AUTHOR_OF[side]
        ? t("visitChat.authors.you")
        : author === "system"
          ? t("visitChat.authors.system")
          : author === "provider"
            ? t("visitChat.authors.clinician")
            : t("visitChat.authors.patient"),
    [side, t],
  );

  const updateOutbox = useCallback(
    (next: OutboxItem[]) => {
      outboxRef.current = next;
      setOutbox(next);
      writeOutbox(storage(), key, next);
    },
    [key],
  );

  const post = useCallback(
    async (fields: Record<string, string | string[]>): Promise<{ status: number; answer: ChatAnswer }> => {
      const body = new URLSearchParams({ side });
      for (const [name, value] of Object.entries(fields)) {
        for (const one of Array.isArray(value) ? value : [value]) body.append(name, one);
      }
      const response = await fetch(base, { method: "POST", body, credentials: "same-origin" });
      const answer = (await response.json().catch(() => ({}))) as ChatAnswer;
      return { status: response.status, answer };
    },
    [base, side],
  );

  /** Shows the new messages of the other side, and says them in the live region. */
  const receive = useCallback(
    (incoming: Message[]) => {
      const known = new Set(messagesRef.current.map((message) => message.id));
      const fresh = incoming.filter(
        (message) => !known.has(message.id) && message.author !== AUTHOR_OF[side],
      );
      const next = mergeMessages(messagesRef.current, incoming);
      messagesRef.current = next;
      setMessages(next);
      const newest = fresh.at(-1);
      if (newest) {
        setOtherTyping(false);
        setAnnouncement(
          t("visitChat.newMessage", { author: authorName(newest.author), body: newest.body.slice(0, 200) }),
        );
      }
    },
    [authorName, side, t],
  );

  // The thread read again (lib/data-cache.ts): after the last message shown, or from the start when
  // a message was retracted (its change is not after it). A retraction asked for during a read from
  // the start is read from the start again.
  const retractions = useRef({ asked: 0, read: 0, reading: 0 });
  const [readFailures, setReadFailures] = useState(0);
  const readerRef = useRef<DataReader | null>(null);
  const receiveRef = useRef(receive);
  receiveRef.current = receive;
  useEffect(() => {
    const reader = createDataReader<ChatAnswer>({
      url: () => {
        const counts = retractions.current;
        counts.reading = counts.asked;
        const after = counts.asked > counts.read ? "" : `&after=${lastSeq(messagesRef.current)}`;
        return `${base}?side=${side}${after}`;
      },
      fetch: (target, init) => fetch(target, init),
      onData: (answer) => {
        retractions.current.read = retractions.current.reading;
        if (answer.messages) receiveRef.current(answer.messages);
      },
      onFailures: setReadFailures,
      // The session ended or the visit is gone: the page's own re-read loads it again.
      onReload: () => undefined,
    });
    readerRef.current = reader;
    return () => {
      reader.stop();
      readerRef.current = null;
    };
  }, [base, side]);
  const catchUp = useCallback((cause: ReadCause, everything = false) => {
    if (everything) retractions.current.asked += 1;
    readerRef.current?.read(cause);
  }, []);

  const flush = useCallback(async () => {
    if (flushing.current) return;
    flushing.current = true;
    try {
      while (outboxRef.current.length > 0) {
        if (!navigator.onLine) return;
        const item = outboxRef.current[0]!;
        let result: Awaited<ReturnType<typeof post>>;
        try {
          result = await post({
            intent: "send",
            body: item.body,
            client_id: item.client_id,
            attachment_id: item.attachments.map((file) => file.id),
          });
        } catch {
          // No connection after all: the next try keeps the same client id.
          retryTimer.current ??= setTimeout(() => {
            retryTimer.current = null;
            void flush();
          }, RETRY_MS);
          return;
        }
        if (result.status >= 500) {
          retryTimer.current ??= setTimeout(() => {
            retryTimer.current = null;
            void flush();
          }, RETRY_MS);
          return;
        }
        const rest = outboxRef.current.filter((waiting) => waiting.client_id !== item.client_id);
        if (result.answer.message) {
          receive([result.answer.message]);
          updateOutbox(rest);
          continue;
        }
        // Refused for good (the thread closed meanwhile…): the text goes back to the box, not lost.
        updateOutbox(rest);
        setError(result.answer.error ?? { key: "messages.errors.failed" });
        setDraft((current) => (current.trim() === "" ? item.body : `${current}\n\n${item.body}`));
        if (result.status === 401) return;
      }
    } finally {
      flushing.current = false;
    }
  }, [post, receive, updateOutbox]);

  // The outbox this browser kept for the visit (a reload, a crash) is sent once the page runs.
  useEffect(() => {
    setScripted(true);
    setOnline(navigator.onLine);
    const kept = readOutbox(storage(), key);
    outboxRef.current = kept;
    setOutbox(kept);
    void flush();
    const wentOnline = () => {
      setOnline(true);
      void flush();
      catchUp("refresh");
    };
    const wentOffline = () => setOnline(false);
    window.addEventListener("online", wentOnline);
    window.addEventListener("offline", wentOffline);
    return () => {
      window.removeEventListener("online", wentOnline);
      window.removeEventListener("offline", wentOffline);
      if (retryTimer.current) clearTimeout(retryTimer.current);
      if (typingTimer.current) clearTimeout(typingTimer.current);
      if (typingIdle.current) clearTimeout(typingIdle.current);
    };
  }, [catchUp, flush, key]);

  const onEvent = useCallback(
    (event: LiveEvent) => {
      const payload = event.payload as Record<string, unknown>;
      if (payload.consultation_id !== consultationId) return;
      if (event.topic === "visit.message") {
        catchUp("changed", payload.change === "retracted");
      } else if (event.topic === "visit.receipt" && payload.by !== side) {
        const receipt = payload.receipt === "read" ? "read" : "delivered";
        const next = applyReceipt(
          messagesRef.current,
          side,
          receipt,
          Number(payload.up_to_seq),
          new Date().toISOString(),
        );
        messagesRef.current = next;
        setMessages(next);
      } else if (event.topic === VISIT_TYPING_TOPIC && payload.side !== side) {
        if (typingTimer.current) clearTimeout(typingTimer.current);
        setOtherTyping(payload.typing === true);
        if (payload.typing === true) {
          typingTimer.current = setTimeout(() => setOtherTyping(false), TYPING_SHOWN_MS);
        }
      }
    },
    [catchUp, consultationId, side],
  );
  const liveState = useLiveEvents(TOPICS, onEvent);

  // Back from a lost connection: catch up on what the events said meanwhile, and send the outbox.
  const previousState = useRef(liveState);
  useEffect(() => {
    if (liveState === "connected" && previousState.current !== "connected") {
      catchUp("refresh");
      void flush();
    }
    previousState.current = liveState;
  }, [catchUp, flush, liveState]);

  // Receipts: "read" for what is on screen while the page is visible, "delivered" otherwise.
  const acknowledge = useCallback(async () => {
    const receipt = visible.current && document.visibilityState === "visible" ? "read" : "delivered";
    const upTo = unacknowledgedUpTo(messagesRef.current, side, receipt);
    if (upTo === null || upTo <= acknowledged.current[receipt]) return;
    acknowledged.current[receipt] = upTo;
    try {
      const { status } = await post({ intent: "receipt", receipt, up_to_seq: String(upTo) });
      if (status === 429 || status >= 500) {
        // Refused for a moment (the visit's budget, a restart): the receipt is sent again shortly,
        // never lost until the next message.
        acknowledged.current[receipt] = 0;
        window.setTimeout(() => void acknowledgeRef.current?.(), RECEIPT_RETRY_MS);
        return;
      }
      if (status >= 400) return;
      const next = messagesRef.current.map((message) =>
        message.author === AUTHOR_OF[side] || message.seq > upTo
          ? message
          : {
              ...message,
              delivered_at: message.delivered_at ?? new Date().toISOString(),
              read_at: receipt === "read" ? (message.read_at ?? new Date().toISOString()) : message.read_at,
            },
      );
      messagesRef.current = next;
      setMessages(next);
    } catch {
      // No connection for a moment: tried again shortly, as when refused.
      acknowledged.current[receipt] = 0;
      window.setTimeout(() => void acknowledgeRef.current?.(), RECEIPT_RETRY_MS);
    }
  }, [post, side]);
  const acknowledgeRef = useRef<(() => Promise<void>) | null>(null);
  acknowledgeRef.current = acknowledge;

  useEffect(() => {
    const thread = threadRef.current;
    if (!thread || typeof IntersectionObserver === "undefined") {
      visible.current = true;
      return;
    }
    const observer = new IntersectionObserver((entries) => {
      visible.current = entries.some((entry) => entry.isIntersecting);
      if (visible.current) void acknowledge();
    });
    observer.observe(thread);
    const onVisibility = () => void acknowledge();
    document.addEventListener("visibilitychange", onVisibility);
    return () => {
      observer.disconnect();
      document.removeEventListener("visibilitychange", onVisibility);
    };
  }, [acknowledge]);

  useEffect(() => {
    if (messages.length > 0) void acknowledge();
  }, [acknowledge, messages]);

  const sendTyping = (typing: boolean) =>
    sendLiveFrame({ type: VISIT_TYPING_TOPIC, consultation_id: consultationId, typing });

  const onDraft = (value: string) => {
    setDraft(value);
    if (typingIdle.current) clearTimeout(typingIdle.current);
    if (value.trim() === "") {
      typingSentAt.current = 0;
      sendTyping(false);
      return;
    }
    if (Date.now() - typingSentAt.current > TYPING_REPEAT_MS) {
      typingSentAt.current = Date.now();
      sendTyping(true);
    }
    typingIdle.current = setTimeout(() => {
      typingSentAt.current = 0;
      sendTyping(false);
    }, TYPING_IDLE_MS);
  };

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    const body = draft.trim();
    if (body === "") {
      setError({ key: "messages.errors.empty" });
      return;
    }
    setError(null);
    const item: OutboxItem = {
      client_id: crypto.randomUUID(),
      body,
      attachments: attached,
      created_at: new Date().toISOString(),
    };
    updateOutbox([...outboxRef.current, item]);
    setDraft("");
    setAttached([]);
    if (typingIdle.current) clearTimeout(typingIdle.current);
    typingSentAt.current = 0;
    sendTyping(false);
    void flush();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) submit();
  };

  const attach = (file: File) => {
    setError(null);
    const form = new FormData();
    form.set("side", side);
    form.set("intent", "upload");
    form.set("file", file);
    // XMLHttpRequest rather than fetch: only it reports the upload's progress.
    const request = new XMLHttpRequest();
    request.open("POST", base);
    request.upload.onprogress = (progress) => {
      if (progress.lengthComputable) {
        setUpload({ name: file.name, percent: Math.round((progress.loaded / progress.total) * 100) });
      }
    };
    request.onload = () => {
      setUpload(null);
      let answer: ChatAnswer = {};
      try {
        answer = JSON.parse(request.responseText) as ChatAnswer;
      } catch {
        // An answer that is not JSON is a failure like any other.
      }
      const file = answer.file;
      if (request.status < 400 && file) {
        setAttached((current) => [
          ...current,
          { id: file.id, file_name: file.file_name, content_type: file.content_type, size: file.size },
        ]);
        setAnnouncement(t("visitChat.attached", { name: file.file_name }));
      } else {
        setError(answer.error ?? { key: "records.errors.failed" });
      }
    };
    request.onerror = () => {
      setUpload(null);
      setError({ key: "visitChat.uploadOffline" });
    };
    setUpload({ name: file.name, percent: 0 });
    request.send(form);
  };

  const retract = async (message: Message) => {
    if (!window.confirm(t("visitChat.retractConfirm"))) return;
    try {
      const { answer } = await post({ intent: "retract", message_id: message.id });
      if (answer.message) receive([answer.message]);
      else setError(answer.error ?? { key: "messages.errors.failed" });
    } catch {
      setError({ key: "visitChat.offlineAction" });
    }
  };

  const statusOf = (message: Message) =>
    message.read_at
      ? t("visitChat.status.read")
      : message.delivered_at
        ? t("visitChat.status.delivered")
        : t("visitChat.status.sent");

  const own = AUTHOR_OF[side];
  const offline = scripted && (!online || liveState === "offline");
  return (
    <div className="flex min-w-0 flex-col gap-4">
      <p className="sr-only" role="status" aria-live="polite">
        {announcement}
      </p>
      {messages.length === 0 && outbox.length === 0 ? (
        <p className="text-ink">{t("visitChat.empty")}</p>
      ) : null}
      <ol ref={threadRef} aria-label={t("visitChat.threadLabel")} className="flex flex-col gap-3">
        {messages.map((message) => (
          <li
            key={message.id}
            className={`rounded-md px-4 py-3 text-ink ${
              message.author === own ? "ml-8 bg-surface-muted" : "mr-8 border border-border bg-surface"
            }`}
          >
            <p className="font-semibold text-sm">
              {authorName(message.author)} ·{" "}
              <time dateTime={message.created_at}>{when(message.created_at)}</time>
              {message.retracted_at ? ` · ${t("visitChat.retracted")}` : null}
            </p>
            <p
              className={`whitespace-pre-line break-words ${message.retracted_at ? "text-ink-muted line-through" : ""}`}
            >
              {message.body}
            </p>
            {message.attachments.length > 0 ? (
              <ul className="mt-2 flex flex-col gap-1">
                {message.attachments.map((file) => (
                  <li key={file.id}>
                    <a className="link" href={`${base}/attachments/${file.id}`} download>
                      {file.file_name}
                    </a>
                  </li>
                ))}
              </ul>
            ) : null}
            {message.author === own ? (
              <div className="mt-1 flex flex-wrap items-center gap-3 text-ink-muted text-sm">
                <span>{statusOf(message)}</span>
                {scripted && open && !message.retracted_at ? (
                  <button
                    type="button"
                    className="link text-sm"
                    aria-label={t("visitChat.retractLabel", { time: when(message.created_at) })}
                    onClick={() => void retract(message)}
                  >
                    {t("visitChat.retract")}
                  </button>
                ) : null}
              </div>
            ) : null}
          </li>
        ))}
        {outbox.map((item) => (
          <li
            key={item.client_id}
            className="ml-8 rounded-md border border-border border-dashed px-4 py-3 text-ink"
          >
            <p className="font-semibold text-sm">{t("visitChat.authors.you")}</p>
            <p className="whitespace-pre-line break-words">{item.body}</p>
            <p className="mt-1 text-ink-muted text-sm">
              {offline ? t("visitChat.status.waiting") : t("visitChat.status.sending")}
            </p>
          </li>
        ))}
      </ol>
      <p className="min-h-6 text-ink-muted text-sm">
        {otherTyping ? t(side === "patient" ? "visitChat.typing.clinician" : "visitChat.typing.patient") : ""}
      </p>
      <p role="status" className="text-ink-muted text-sm empty:hidden">
        {readFailures > 0 && !offline ? t("visitChat.refreshFailed") : ""}
      </p>
      {open ? (
        <form method="post" onSubmit={submit} className="flex flex-col gap-3" noValidate>
          {offline ? (
            <p role="status" className="rounded-md bg-surface-muted px-3 py-2 text-ink">
              {t("visitChat.offline")}
            </p>
          ) : null}
          {error ? (
            <p role="alert" className="font-semibold text-danger">
              {translateMessage(t, error)}
            </p>
          ) : null}
          <input type="hidden" name="consultation" value={consultationId} />
          <label htmlFor={`${formId}-body`} className="font-semibold text-ink">
            {t("visitChat.write")}
          </label>
          <textarea
            id={`${formId}-body`}
            name="body"
            rows={3}
            maxLength={MESSAGE_MAX_LENGTH}
            value={draft}
            onChange={(event) => onDraft(event.currentTarget.value)}
            onKeyDown={onKeyDown}
            aria-describedby={`${formId}-hint`}
            className="w-full rounded-md border border-border bg-surface px-3 py-2 text-ink"
          />
          <p id={`${formId}-hint`} className="text-ink-muted text-sm">
            {t("visitChat.sendHint")}
          </p>
          {scripted ? (
            <div className="flex flex-col gap-2">
              <label htmlFor={`${formId}-file`} className="text-ink">
                {t("visitChat.attach")}
              </label>
              <input
                id={`${formId}-file`}
                type="file"
                accept={DOCUMENT_CONTENT_TYPES.join(",")}
                disabled={upload !== null || attached.length >= MESSAGE_ATTACHMENTS_MAX}
                onChange={(event) => {
                  const file = event.currentTarget.files?.[0];
                  event.currentTarget.value = "";
                  if (file) attach(file);
                }}
              />
              {upload ? (
                <div className="flex items-center gap-2">
                  <progress
                    max={100}
                    value={upload.percent}
                    aria-label={t("visitChat.uploading", { name: upload.name, percent: upload.percent })}
                  />
                  <span className="text-ink-muted text-sm">
                    {t("visitChat.uploading", { name: upload.name, percent: upload.percent })}
                  </span>
                </div>
              ) : null}
              {attached.length > 0 ? (
                <ul className="flex flex-col gap-1">
                  {attached.map((file) => (
                    <li key={file.id} className="flex items-center gap-2 text-ink">
                      <span>{t("visitChat.attached", { name: file.file_name })}</span>
                      <button
                        type="button"
                        className="link text-sm"
                        onClick={() => setAttached((current) => current.filter((one) => one.id !== file.id))}
                      >
                        {t("visitChat.removeAttachment", { name: file.file_name })}
                      </button>
                    </li>
                  ))}
                </ul>
              ) : null}
            </div>
          ) : null}
          <div>
            <button type="submit" className="button-primary">
              {t("visitChat.send")}
            </button>
          </div>
        </form>
      ) : closedNotice ? (
        <p className="text-ink-muted">{closedNotice}</p>
      ) : null}
    </div>
  );
}
