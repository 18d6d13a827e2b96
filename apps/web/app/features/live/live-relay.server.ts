import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { createHeartbeat, LIVE_CLOSE_CODES, LIVE_WEB_PATH } from "@ambercare/contracts/live";
import { type RawData, WebSocket, WebSocketServer } from "ws";
import { originIsSite } from "#app/lib/cross-site.server.ts";

/** The API refuses larger client frames too; the relay stops them before they cross. */
const MAX_FRAME_BYTES = 16 * 1024;
/** Frames the API sends while the page's side is still being accepted (a handful at most). */
const MAX_EARLY_FRAMES = 100;

export type LiveRelayOptions = {
  /** The API's live WebSocket, `ws://…/api/v1/api/live`. */
  apiLiveUrl: string;
  /**
   * The site's origin (PUBLIC_URL), which the page's Origin must equal. Unset (a local run): the
   * Origin's host must be the request's Host.
   */
  siteOrigin?: string | undefined;
  /** The bearer token of the session, from the request's Cookie header; undefined when logged out. */
  tokenOf(cookieHeader: string | undefined): string | undefined;
  /** Headers that name the visitor to the API (ADR 025), so its limits count visitors. */
  visitorHeaders?(request: IncomingMessage): Record<string, string>;
  /** How often the relay pings the page's socket; a page that misses a pong is dropped. */
  pingIntervalMs?: number;
};

export type LiveRelay = {
  /** For `server.on("upgrade", …)`: answers `/live`, refuses every other upgrade with 404. */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void;
  close(): void;
};

function refuse(
  socket: Duplex,
  status: 401 | 403 | 404 | 429 | 502,
  reason: string,
  headers: Record<string, string> = {},
): void {
  if (socket.writable) {
    const extra = Object.entries(headers)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join("");
    socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\n${extra}Content-Length: 0\r\n\r\n`);
  }
  socket.destroy();
}

/**
 * The page's live events socket (ADR 033): the browser opens `wss://<site>/live`; the relay checks
 * the Origin (a page of another site cannot ride on the visitor's cookies), takes the session's token
 * from its HttpOnly cookie, opens the API's socket with it as a bearer token and passes frames both
 * ways unchanged. The token never reaches the page. When either side closes, so does the other.
 */
export function createLiveRelay(options: LiveRelayOptions): LiveRelay {
  const pages = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });
  // One ping round for all the pages' sockets of this process, not a timer per socket.
  const heartbeat = createHeartbeat(options.pingIntervalMs ?? 20_000);

  function relay(page: WebSocket, api: WebSocket, early: RawData[]): void {
    const stopHeartbeat = heartbeat.add(page);
    for (const frame of early) page.send(frame, { binary: false });
    api.removeAllListeners("message");
    api.on("message", (data, isBinary) => {
      if (page.readyState === WebSocket.OPEN) page.send(data, { binary: isBinary });
    });
    page.on("message", (data, isBinary) => {
      if (api.readyState === WebSocket.OPEN) api.send(data, { binary: isBinary });
    });
    page.on("close", () => {
      stopHeartbeat();
      if (api.readyState === WebSocket.OPEN || api.readyState === WebSocket.CONNECTING) api.close();
    });
    api.on("close", (code) => {
      if (page.readyState === WebSocket.OPEN) {
        // A refused session ends as such; anything else tells the page to reconnect.
        page.close(code === LIVE_CLOSE_CODES.unauthorized ? code : LIVE_CLOSE_CODES.upstreamGone);
      }
    });
    // Errors end in "close" on the same socket; the frames are the visitor's and are never logged.
    page.on("error", () => page.terminate());
  }

  return {
    handleUpgrade(request, socket, head) {
      socket.on("error", () => socket.destroy());
      const path = new URL(request.url ?? "/", "http://relay.invalid").pathname;
      if (path !== LIVE_WEB_PATH) return refuse(socket, 404, "Not Found");
      if (!originIsSite(request.headers, options.siteOrigin)) return refuse(socket, 403, "Forbidden");
      const token = options.tokenOf(request.headers.cookie);
      if (!token) return refuse(socket, 401, "Unauthorized");

      const api = new WebSocket(options.apiLiveUrl, {
        headers: { authorization: `Bearer ${token}`, ...options.visitorHeaders?.(request) },
        maxPayload: MAX_FRAME_BYTES * 8,
      });
      const early: RawData[] = [];
      api.on("message", (data) => {
        if (early.length < MAX_EARLY_FRAMES) early.push(data);
      });
      api.on("error", () => {
        if (api.readyState !== WebSocket.OPEN) refuse(socket, 502, "Bad Gateway");
      });
      api.once("unexpected-response", (_req, response) => {
        // The API refused the session's token (expired, revoked), or the visitor's rate: so does the
        // relay, with the API's Retry-After, so the page waits instead of taking it for an outage.
        if (response.statusCode === 401) refuse(socket, 401, "Unauthorized");
        else if (response.statusCode === 429) {
          const retryAfter = response.headers["retry-after"];
          refuse(socket, 429, "Too Many Requests", retryAfter ? { "Retry-After": String(retryAfter) } : {});
        } else refuse(socket, 502, "Bad Gateway");
        api.terminate();
      });
      socket.once("close", () => {
        if (api.readyState === WebSocket.CONNECTING) api.terminate();
      });
      api.once("open", () => {
        if (socket.destroyed) {
          api.close();
          return;
        }
        pages.handleUpgrade(request, socket, head, (page) => relay(page, api, early));
      });
    },
    close() {
      heartbeat.stop();
      for (const page of pages.clients) page.terminate();
      pages.close();
    },
  };
}
