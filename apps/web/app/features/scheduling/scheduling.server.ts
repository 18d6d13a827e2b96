import type {
  AddExceptionRequest,
  AgendaItem,
  HourException,
  PutScheduleRequest,
  Schedule,
} from "@ambercare/contracts/scheduling";
import { userApi, visitorHeaders } from "#app/lib/api.server.ts";
import type { SessionUser } from "#app/lib/session.server.ts";

type Context = { clientIp?: string } | undefined;

/** The console's week view: today and the 6 days after it. */
const AGENDA_WEEK_DAYS = 7;
const DAY_MS = 24 * 60 * 60_000;

/**
 * The clinician's own booking settings and agenda (main API, `/api/care-team/schedule…` and
 * `/api/care-team/agenda`) with the clinician's token and the visitor's address (ADR 025).
 */
export function schedulingApi(request: Request, user: SessionUser, context: Context) {
  const api = userApi(request, user).scheduling;
  const options = { headers: visitorHeaders(context) };
  return {
    async schedule(): Promise<Schedule> {
      return (await api.getSchedule({}, options)).data;
    },
    async saveSchedule(body: PutScheduleRequest): Promise<Schedule> {
      return (await api.putSchedule({ body }, options)).data;
    },
    async addException(body: AddExceptionRequest): Promise<HourException> {
      return (await api.addException({ body }, options)).data;
    },
    async removeException(id: string): Promise<void> {
      await api.deleteException({ params: { id } }, options);
    },
    /**
     * Today's booked visits (today in the clinician's zone) and the week's (the 7 days from today's
     * start, today included), with that zone.
     */
    async agendaToday(): Promise<{ items: AgendaItem[]; week: AgendaItem[]; timeZone: string }> {
      const answer = await api.agenda({ query: {} }, options);
      const from = answer.meta.from;
      const to = new Date(Date.parse(from) + AGENDA_WEEK_DAYS * DAY_MS).toISOString();
      const week = await api.agenda({ query: { from, to } }, options);
      return { items: answer.data, week: week.data, timeZone: answer.meta.time_zone };
    },
  };
}
