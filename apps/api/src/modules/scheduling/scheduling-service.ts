import { perVisitType } from "@ambercare/contracts/visit-types";
import type { FastifyInstance } from "fastify";
import { type AvailabilityIndex, createAvailabilityIndex } from "#api/modules/scheduling/availability.ts";
import { type BookingEvents, noBookingEvents } from "#api/modules/scheduling/booking-events.ts";
import { type BookingService, createBookingService } from "#api/modules/scheduling/booking-service.ts";
import type { ScheduleDefaults } from "#api/modules/scheduling/schedule-repository.ts";
import {
  createScheduleService,
  type ScheduleChangeHook,
  type ScheduleService,
} from "#api/modules/scheduling/schedule-service.ts";
import { type ApiConfig, slotMinutesVariable } from "#api/platform/config.ts";

export type { ScheduleChangeHook, ScheduleService };

/** Booked visits as the app holds them (`app.scheduling`). */
export type Scheduling = {
  schedules: ScheduleService;
  bookings: BookingService;
  /** The directory's "next available", "taking visits" and the free-today part of "available today". */
  availability: AvailabilityIndex;
};

export function scheduleDefaults(config: ApiConfig): ScheduleDefaults {
  return {
    slotMinutes: perVisitType((visit) => config[slotMinutesVariable(visit.id)]),
    minNoticeMinutes: config.BOOKING_MIN_NOTICE_MINUTES,
    horizonDays: config.BOOKING_HORIZON_DAYS,
  };
}

/**
 * Builds the scheduling module on the app's database, clock, live events and visit service.
 * `events` is where the reminders' jobs hook in (booking-events.ts); nothing listens by default.
 */
export function createScheduling(
  app: Pick<FastifyInstance, "db" | "clock" | "live" | "visits" | "log">,
  config: ApiConfig,
  events: BookingEvents = noBookingEvents,
): Scheduling {
  const defaults = scheduleDefaults(config);
  const availability = createAvailabilityIndex({
    db: app.db.db,
    clock: app.clock,
    defaults,
    onError: (error) => app.log.warn({ err: error }, "computing the providers' availability failed"),
  });
  const changed = () => availability.invalidate();
  const schedules = createScheduleService({
    db: app.db.db,
    clock: app.clock,
    defaults,
    onChange: changed,
    timeZone: config.CLINIC_TIME_ZONE,
  });
  const bookings = createBookingService({
    db: app.db.db,
    clock: app.clock,
    timeZone: config.CLINIC_TIME_ZONE,
    policy: {
      holdMinutes: config.BOOKING_HOLD_MINUTES,
      cancelCutoffMinutes: config.BOOKING_CANCEL_CUTOFF_MINUTES,
      checkInOpensMinutes: config.CHECK_IN_OPENS_MINUTES,
      noShowGraceMinutes: config.NO_SHOW_GRACE_MINUTES,
    },
    schedules,
    events,
    live: app.live,
    onChange: changed,
    settlePending: () => app.visits.settlePending(),
  });
  return { schedules, bookings, availability };
}
