import { apiRoutes } from "@ambercare/contracts/api-routes";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { authOf, clinicianOf, createAuthGuards } from "#api/modules/accounts/auth-guards.ts";
import { calendarOrganizer, visitInvitation } from "#api/modules/scheduling/booking-calendar.ts";
import { mailFrom, webUrl } from "#api/platform/config.ts";
import { sendDocument } from "#api/platform/content-disposition.ts";
import { serve } from "#api/platform/contract-routes.ts";
import { AppError } from "#api/platform/errors.ts";
import { mailT } from "#api/platform/mail/mail-copy.ts";

const routes = apiRoutes.scheduling;

/**
 * The main API's calls of booked visits (ADR 059): a provider's free slots (public), and the
 * clinician's hours, exceptions, agenda and missed visits (behind `guards.clinician`).
 */
export const schedulingRoutes: FastifyPluginAsyncZod = async (app) => {
  const guards = createAuthGuards(app.accounts.sessions);
  const clinician = { onRequest: guards.clinician };
  const { schedules, bookings } = app.scheduling;

  serve(app, routes.slots, async (request) => ({
    data: await schedules.slots(request.params.slug, request.query),
  }));

  serve(app, routes.getSchedule, clinician, async (request) => ({
    data: await schedules.scheduleOf(clinicianOf(request).userId),
  }));

  serve(app, routes.putSchedule, clinician, async (request) => ({
    data: await schedules.replace(clinicianOf(request).userId, request.body),
  }));

  serve(app, routes.addException, clinician, async (request, reply) => {
    const data = await schedules.addException(clinicianOf(request).userId, request.body);
    return reply.code(201).send({ data });
  });

  serve(app, routes.deleteException, clinician, async (request, reply) => {
    await schedules.deleteException(clinicianOf(request).userId, request.params.id);
    return reply.code(204).send(null);
  });

  serve(app, routes.agenda, clinician, async (request) => {
    const { items, timeZone, from, to } = await schedules.agenda(clinicianOf(request).userId, request.query);
    return { data: items, meta: { time_zone: timeZone, from: from.toISOString(), to: to.toISOString() } };
  });

  serve(app, routes.markMissed, clinician, async (request) => {
    const { userId, providerId } = clinicianOf(request);
    await bookings.markMissed({ userId, providerId }, request.params.id);
    return { data: await app.visits.consoleVisit({ userId, providerId }, request.params.id) };
  });
};

/** The care API's calls of booked visits: holds, the booking, reschedule and check-in (patients). */
export const careSchedulingRoutes: FastifyPluginAsyncZod = async (app) => {
  const guards = createAuthGuards(app.accounts.sessions);
  const patient = { onRequest: guards.patient };
  const { bookings } = app.scheduling;

  serve(app, routes.createHold, patient, async (request, reply) => {
    const data = await bookings.hold(authOf(request), request.body);
    return reply.code(201).send({ data });
  });

  serve(app, routes.releaseHold, patient, async (request, reply) => {
    await bookings.releaseHold(authOf(request), request.params.id);
    return reply.code(204).send(null);
  });

  serve(app, routes.booking, patient, async (request) => ({
    data: await bookings.booking(authOf(request), request.params.id),
  }));

  serve(app, routes.reschedule, patient, async (request) => ({
    data: await bookings.reschedule(authOf(request), request.params.id, request.body.hold_id),
  }));

  // "Add to calendar": the visit's event as the e-mailed invitation has it (same UID and SEQUENCE),
  // published rather than sent as an invitation; a visit no longer booked has none to add (404).
  serve(app, routes.calendar, patient, async (request, reply) => {
    const booking = await bookings.booking(authOf(request), request.params.id);
    if (booking.status !== "scheduled") throw new AppError("NOT_FOUND", 404, "This visit has no booked time");
    const { organizer, host } = calendarOrganizer(mailFrom(app.config));
    const link = `${webUrl(app.config)}/my-profile/consultations/${booking.consultation_id}`;
    const calendar = visitInvitation({
      consultationId: booking.consultation_id,
      sequence: booking.sequence,
      startsAt: new Date(booking.start),
      endsAt: new Date(booking.end),
      summary: `${app.config.PRODUCT_NAME}: ${mailT(request.query.lang ?? "en")(`visit.types.${booking.type}`)}`,
      link,
      organizer,
      attendee: null,
      canceled: false,
      host,
      method: "publish",
    });
    return sendDocument(reply, {
      fileName: "visit.ics",
      contentType: "text/calendar; charset=utf-8",
      bytes: Buffer.from(calendar, "utf8"),
    });
  });

  serve(app, routes.checkIn, patient, async (request) => ({
    data: await bookings.checkIn(authOf(request), request.params.id),
  }));
};
