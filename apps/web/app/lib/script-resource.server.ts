import { data } from "react-router";
import { isApiError } from "#app/lib/api-client.server.ts";
import { describeApiError } from "#app/lib/api-errors.ts";
import type { TranslationKey } from "#app/lib/i18n.tsx";
import { getUser, type SessionUser } from "#app/lib/session.server.ts";

/**
 * What the resource routes a page's scripts call about one visit (its chat, its call) share: the
 * id checked, the session required, and the API's refusal turned into a translated message.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isUuid = (value: string) => UUID.test(value);

/** The signed-in account for a visit `id`; 404 for a malformed id. */
export function scriptSession(request: Request, id: string): SessionUser {
  if (!UUID.test(id)) throw data({ error: "not_found" }, { status: 404 });
  const user = getUser(request);
  // A resource of the page's scripts: a missing session is a 401 for them, not a login redirect.
  if (!user) throw data({ error: "session_ended" }, { status: 401 });
  return user;
}

/** A refused API call as the scripts show it: the status and a translated message (the API's text never). */
export function refusedForScripts(error: unknown, fallback: TranslationKey) {
  if (!isApiError(error) || error.status >= 500 || error.status === 0) throw error;
  const { message } = describeApiError(error, { fallback: { key: fallback } });
  return data({ error: message, code: error.code ?? null }, { status: error.status });
}
