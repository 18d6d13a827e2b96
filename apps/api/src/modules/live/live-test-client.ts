import { WebSocket } from "ws";

/**
 * A WebSocket client for tests (imported by *.test.ts files only): every frame it receives is kept in
 * order, and `next()` waits for the next one.
 */
export type LiveTestClient = {
  socket: WebSocket;
  frames: unknown[];
  /** The next frame not yet taken by `next()` (waits up to `timeoutMs`). */
  next(timeoutMs?: number): Promise<unknown>;
  /** Resolves with the frames received during `ms` that `next()` has not taken. */
  quietFor(ms: number): Promise<unknown[]>;
  send(frame: unknown): void;
  close(): Promise<void>;
  closed: Promise<{ code: number }>;
};

/** Opens `url`; resolves once open, rejects with the HTTP status when the upgrade is refused. */
export function openLiveClient(
  url: string,
  headers: Record<string, string> = {},
  options: { autoPong?: boolean } = {},
): Promise<LiveTestClient> {
  const socket = new WebSocket(url, { headers, autoPong: options.autoPong ?? true });
  // A refused upgrade is reported once below; later errors of a closing socket are not the test's.
  socket.on("error", () => undefined);
  const frames: unknown[] = [];
  let taken = 0;
  let waiter: (() => void) | undefined;
  socket.on("message", (data) => {
    frames.push(JSON.parse(data.toString()));
    waiter?.();
  });
  const closed = new Promise<{ code: number }>((resolve) => {
    socket.on("close", (code) => resolve({ code }));
  });
  const client: LiveTestClient = {
    socket,
    frames,
    closed,
    async next(timeoutMs = 5_000) {
      const deadline = Date.now() + timeoutMs;
      while (frames.length <= taken) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no frame within ${timeoutMs} ms (got ${JSON.stringify(frames)})`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiter = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        waiter = undefined;
      }
      return frames[taken++];
    },
    async quietFor(ms) {
      await new Promise((resolve) => setTimeout(resolve, ms));
      const rest = frames.slice(taken);
      taken = frames.length;
      return rest;
    },
    send(frame) {
      socket.send(typeof frame === "string" ? frame : JSON.stringify(frame));
    },
    async close() {
      if (socket.readyState === socket.CLOSED) return;
      socket.close();
      await closed;
    },
  };
  return new Promise((resolve, reject) => {
    socket.once("open", () => resolve(client));
    socket.once("unexpected-response", (_request, response) => {
      reject(new LiveRefusedError(response.statusCode ?? 0));
      socket.terminate();
    });
    socket.once("error", reject);
  });
}

export class LiveRefusedError extends Error {
  override name = "LiveRefusedError";
  constructor(readonly status: number) {
    super(`the upgrade was refused with ${status}`);
  }
}
