import {
  type ChosenProvider,
  stateCode,
  toChosenProvider,
} from "#app/features/consultations/visit-choice.ts";
import { fetchProvider } from "#app/features/directory/directory.server.ts";
import { isApiError } from "#app/lib/api-client.server.ts";
import { requestLocale } from "#app/lib/locale.server.ts";
import { requireUser, type SessionUser } from "#app/lib/session.server.ts";

/**
 * The provider of a choice, from the directory: null when none is chosen or there is no such
 * provider; `unavailable` when the directory cannot answer (the choice is kept as it is, the API
 * checks it when the visit is requested).
 */
export async function loadChosenProvider(
  slug: string | null,
  request: Request,
  context?: { clientIp?: string },
): Promise<ChosenProvider | null | "unavailable"> {
  if (!slug) return null;
  const found = await fetchProvider(slug, requestLocale(request), context);
  if (found === null || found === "unavailable") return found;
  return toChosenProvider(found);
}

/** The state of the patient's profile, to start from; null for a visitor or when it is not known. */
export async function profileState(request: Request, user: SessionUser | null): Promise<string | null> {
  if (!user) return null;
  try {
    return stateCode((await requireUser(request)).account.state);
  } catch (error) {
    if (isApiError(error)) return null;
    throw error;
  }
}
