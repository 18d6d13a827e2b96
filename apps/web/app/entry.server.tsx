import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import type { RenderToPipeableStreamOptions } from "react-dom/server";
import { renderToPipeableStream } from "react-dom/server";
import type { AppLoadContext, EntryContext } from "react-router";
import { ServerRouter } from "react-router";
import { ReactFlushedStream } from "#app/lib/html-stream.server.ts";
import { NonceProvider } from "#app/lib/nonce.ts";
import { OUTAGE_RETRY_AFTER_SECONDS } from "#app/lib/outage.server.ts";

// …the relay of the pages' live events socket (`/live`, ADR 033)…
export { createSiteLiveRelay } from "#app/features/live/site-live-relay.server.ts";
// …the timeouts of the connections it keeps open…
export { configureConnections } from "#app/lib/connections.server.ts";
// …the check that refuses a state-changing request sent by another site, in front of every route…
export { refuseCrossSiteWrites } from "#app/lib/cross-site.server.ts";
// …and the Content-Security-Policy it sends with each response's nonce.
export { contentSecurityPolicy } from "#app/lib/csp.server.ts";
// …the limit per visitor it puts in front of the pages, and the visitor every API call names (ADR 025).
export { visitorHandlers } from "#app/lib/edge-rate-limit.server.ts";
// server.mjs reads these from the build (`build.entry.module`): the env parsed once by zod at boot,
// and the service secrets it resolves at start so a missing production secret stops the boot.
export { env, getServiceSecrets } from "#app/lib/env.server.ts";
// …and the same-origin image service it mounts at /_img (ADR 011).
export { createImageService } from "#app/lib/image-service.server.ts";
// …the build it serves, whose pages show the 503 page when the API is down…
export { withOutagePages } from "#app/lib/outage.server.ts";
// …the short-lived cache of anonymous visitors' pages in front of React Router (ADR 045)…
export { createPageCache } from "#app/lib/page-cache.server.ts";
// Static files compressed at build time (ADR 038), for server.mjs.
export { precompressedFiles } from "#app/lib/precompressed-files.server.ts";
// …with the providers' photos it reads from this host's API (ADR 070).
export { loadProviderPhoto } from "#app/lib/provider-photos.server.ts";

export const streamTimeout = 5_000;

/**
 * Streams the HTML (bots and SPA-mode renders wait for everything), passing the request's CSP nonce
 * to React Router's inline scripts and to React's streaming scripts.
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppLoadContext,
): Promise<Response> | Response {
  // A page that is down for a while tells browsers and crawlers when to come back.
  if (responseStatusCode === 503 && !responseHeaders.has("Retry-After")) {
    responseHeaders.set("Retry-After", String(OUTAGE_RETRY_AFTER_SECONDS));
  }
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  const nonce = loadContext.cspNonce ?? "";
  const userAgent = request.headers.get("user-agent");
  const readyOption: keyof RenderToPipeableStreamOptions =
    (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? "onAllReady" : "onShellReady";

  return new Promise((resolve, reject) => {
    let shellRendered = false;
    let status = responseStatusCode;
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(
      () => abort(),
      streamTimeout + 1000,
    );

    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce || undefined} />
      </NonceProvider>,
      {
        nonce: nonce || undefined,
        [readyOption]() {
          shellRendered = true;
          const body = new ReactFlushedStream({
            final(callback) {
              clearTimeout(timeoutId);
              timeoutId = undefined;
              callback();
            },
          });
          const stream = createReadableStreamFromReadable(body);
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          // Pages vary by session and language cookies and may show personal data: never cache them.
          if (!responseHeaders.has("Cache-Control"))
            responseHeaders.set("Cache-Control", "private, no-store");
          responseHeaders.append("Vary", "Cookie, Accept-Language");
          pipe(body);
          resolve(new Response(stream, { headers: responseHeaders, status }));
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          status = 500;
          // Errors in the shell reject and are logged by React Router; log the streamed ones here.
          if (shellRendered) console.error(error);
        },
      },
    );
  });
}
