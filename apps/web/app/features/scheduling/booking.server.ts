import type { Locale } from "@ambercare/contracts/locales";
import type { ConsultationType } from "@ambercare/contracts/provider-limits";
import type { Booking, Hold, Slot } from "@ambercare/contracts/scheduling";
import { isUsStateCode, type UsStateCode } from "@ambercare/contracts/us-states";
import { publicApi, userApi, visitorHeaders } from "#app/lib/api.server.ts";
import { isApiError } from "#app/lib/api-client.server.ts";
import type { SessionUser } from "#app/lib/session.server.ts";

type Context = { clientIp?: string } | undefined;

/** How many days of free times the booking page shows at once. */
export const SLOT_DAYS = 7;
/** How many of the next free times a provider's profile shows, and over how many days. */
export const PREVIEW_SLOTS = 6;
const PREVIEW_DAYS = 3;

/**
 * A provider's free times (the main API's public `…/slots`, ADR 059), for one visit type and the
 * state the patient will be in. `unavailable`: the API could not answer (the page says so and keeps
 * the choice); an empty list: no free time in these days.
 */
export async function freeSlots(
  slug: string,
  query: { type: ConsultationType; state: string | null; from?: string; near?: string; days?: number },
  context: Context,
): Promise<Slot[] | "unavailable"> {
  try {
    const answer = await publicApi().scheduling.slots(
      {
        params: { slug },
        query: {
          type: query.type,
          ...(query.state && isUsStateCode(query.state) ? { state: query.state } : {}),
          ...(query.from ? { from: query.from } : {}),
          ...(query.near ? { near: query.near } : { days: String(query.days ?? SLOT_DAYS) }),
        },
      },
      { headers: visitorHeaders(context) },
    );
    return answer.data.slots;
  } catch (error) {
    if (!isApiError(error) || error.status >= 500 || error.status === 0) {
      if (isApiError(error)) console.warn(`free slots: ${error.message}`);
      else throw error;
      return "unavailable";
    }
    // A provider without hours, an unknown one, a state they are not licensed in: no free time.
    return [];
  }
}

/**
 * The next free times of a provider, of every type they offer, for their profile: the first few of
 * the coming days in time order; empty when there are none or the API could not answer (the
 * profile still links to the booking page).
 */
export async function nextFreeTimes(
  slug: string,
  types: readonly ConsultationType[],
  context: Context,
): Promise<Slot[]> {
  const lists = await Promise.all(
    types.map((type) => freeSlots(slug, { type, state: null, days: PREVIEW_DAYS }, context)),
  );
  return lists
    .flatMap((list) => (list === "unavailable" ? [] : list))
    .sort((a, b) => Date.parse(a.start) - Date.parse(b.start) || a.type.localeCompare(b.type))
    .slice(0, PREVIEW_SLOTS);
}

/**
 * The patient's side of a booked visit (the care API's holds, booking, reschedule and check-in),
 * with the patient's own token and the visitor's address (ADR 025).
 */
export function bookingApi(request: Request, user: SessionUser, context: Context) {
  const api = userApi(request, user).scheduling;
  const options = { headers: visitorHeaders(context) };
  return {
    /** A state that is no USPS code is sent as it is, for the API to refuse (422). */
    async hold(body: {
      provider_slug: string;
      type: ConsultationType;
      state: string;
      start: string;
    }): Promise<Hold> {
      return (await api.createHold({ body: { ...body, state: body.state as UsStateCode } }, options)).data;
    },
    async booking(consultationId: string): Promise<Booking> {
      return (await api.booking({ params: { id: consultationId } }, options)).data;
    },
    async reschedule(consultationId: string, holdId: string): Promise<Booking> {
      return (await api.reschedule({ params: { id: consultationId }, body: { hold_id: holdId } }, options))
        .data;
    },
    /** The visit's `.ics` as the API answers it (bytes and headers), for the download route. */
    async calendar(consultationId: string, lang: Locale): Promise<Response> {
      return api.calendar({ params: { id: consultationId }, query: { lang } }, options);
    },
    async checkIn(consultationId: string): Promise<Booking> {
      return (await api.checkIn({ params: { id: consultationId } }, options)).data;
    },
  };
}

/** The refusals that mean "this time is gone: choose another one" (the page offers the nearest). */
export const TIME_GONE_CODES: readonly string[] = [
  "SLOT_TAKEN",
  "SLOT_HELD",
  "HOLD_EXPIRED",
  "HOLD_NOT_FOUND",
  "OUTSIDE_HOURS",
];
