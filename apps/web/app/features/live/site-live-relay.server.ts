import type { IncomingMessage } from "node:http";
import { LIVE_API_PATH } from "@ambercare/contracts/live";
import { visitorHeaders } from "@ambercare/contracts/visitor";
import { createLiveRelay, type LiveRelay } from "#app/features/live/live-relay.server.ts";
import { apiBases, env, getServiceSecrets } from "#app/lib/env.server.ts";
import { readSessionCookies, sessionUserOf } from "#app/lib/session.server.ts";

/** The API's live socket behind an HTTP base URL (`http://…/api/v1` → `ws://…/api/v1/api/live`). */
export function liveUrlOf(mainApiBase: string): string {
  return `${mainApiBase.replace(/^http/, "ws")}${LIVE_API_PATH}`;
}

/** The bearer token of a Cookie header's session: the main API's, else the care API's (both work). */
export function sessionTokenOf(cookieHeader: string | undefined): string | undefined {
  const user = sessionUserOf(readSessionCookies(cookieHeader));
  return user ? (user.accessToken ?? user.careAccessToken) : undefined;
}

/**
 * The site's relay of `/live` (server.mjs mounts it on the server's upgrades). `visitorAddress` is
 * the visitor as TRUST_PROXY makes it out, for the signed visitor headers of the API's limits.
 */
export function createSiteLiveRelay(
  visitorAddress: (request: IncomingMessage) => string | undefined,
): LiveRelay {
  return createLiveRelay({
    apiLiveUrl: liveUrlOf(apiBases.mainApiBase),
    siteOrigin: env.PUBLIC_URL,
    tokenOf: sessionTokenOf,
    visitorHeaders(request) {
      const address = visitorAddress(request);
      return address ? visitorHeaders(getServiceSecrets().PUBLIC_API_TOKEN, address) : {};
    },
  });
}
