import type { Message } from "@ambercare/contracts/consultation";
import type { Booking } from "@ambercare/contracts/scheduling";
import type { WaitingRoom } from "@ambercare/contracts/waiting-room";
import { consultationApi } from "#app/features/consultations/consultations.server.ts";
import { bookingApi } from "#app/features/scheduling/booking.server.ts";
import { isApiError } from "#app/lib/api-client.server.ts";
import { orNotFound } from "#app/lib/not-found.server.ts";
import type { SessionUser } from "#app/lib/session.server.ts";

/** The visit's chat is open from acceptance, and for follow-up questions after completion. */
const WITH_CLINICIAN: readonly string[] = ["accepted", "in_progress"];

/**
 * `followUpOpen`: a completed visit whose chat still takes follow-up questions (the API's
 * VISIT_FOLLOW_UP_DAYS, told by the waiting room's `follow_up_until`), decided here so the page and
 * its hydration agree.
 */
export type VisitPageData = {
  room: WaitingRoom;
  messages: Message[];
  followUpOpen: boolean;
  /** A booked visit's time and what the patient may still do (ADR 059); null for an on-demand one. */
  booking: BookedVisit | null;
};

/**
 * A booked visit as its page shows it, with what the moment allows decided here (so the page and
 * its hydration agree): check in (from the check-in window), move or cancel free (before the cut-off).
 */
export type BookedVisit = Booking & { checkInOpen: boolean; freeToChange: boolean };

/** The booking of a visit that has a time; null when it has none or the API no longer knows it. */
async function bookedVisit(
  request: Request,
  user: SessionUser,
  context: { clientIp?: string } | undefined,
  room: WaitingRoom,
): Promise<BookedVisit | null> {
  if (!room.consultation.scheduled_start) return null;
  try {
    const booking = await bookingApi(request, user, context).booking(room.consultation.id);
    // The API's clock decides what the moment allows, as it decides the steps themselves.
    return { ...booking, checkInOpen: booking.check_in_open, freeToChange: booking.free_to_change };
  } catch (error) {
    if (isApiError(error) && error.status === 404) return null;
    throw error;
  }
}

/**
 * What a patient's visit page shows (routes/my-profile/visit.tsx), for its loader and for the page's
 * own re-reads (routes/my-profile/visit-data.ts): the waiting room and, once a clinician accepted,
 * the thread. A visit that is not this patient's is the site's 404.
 */
export async function readVisitPage(
  request: Request,
  user: SessionUser,
  context: { clientIp?: string } | undefined,
  id: string,
): Promise<VisitPageData> {
  const api = consultationApi(request, user, context);
  const room = await orNotFound(() => api.waitingRoom(id));
  const until = room.consultation.status === "completed" ? room.follow_up_until : null;
  const followUpOpen = typeof until === "string" && Date.parse(until) > Date.now();
  // The thread opens when a clinician accepts: before that there is nothing to read.
  const messages =
    WITH_CLINICIAN.includes(room.consultation.status) || followUpOpen
      ? await api.messages(room.consultation.id)
      : [];
  const booking = await bookedVisit(request, user, context, room);
  return { room, messages, followUpOpen, booking };
}
