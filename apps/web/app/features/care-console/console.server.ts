import type {
  ConsoleVisit,
  DutyStatus,
  QueuedVisit,
  SaveVisitNotesRequest,
  VisitNotes,
  VisitWorkspace,
} from "@ambercare/contracts/console";
import { userApi, visitorHeaders } from "#app/lib/api.server.ts";
import type { SessionUser } from "#app/lib/session.server.ts";

type Context = { clientIp?: string } | undefined;

/**
 * The care console's calls (main API, `/api/care-team/…`) with the clinician's own token. Each names
 * the visitor's address (signed, ADR 025), so the patient's access log records where the clinician
 * was, not the web server's address. The API decides what this clinician may see and do.
 */
export function consoleApi(request: Request, user: SessionUser, context: Context) {
  const api = userApi(request, user).careTeam;
  const options = { headers: visitorHeaders(context) };
  const byId = (id: string) => ({ params: { id } });
  return {
    async queue(): Promise<QueuedVisit[]> {
      return (await api.queue({}, options)).data;
    },
    async visits(): Promise<ConsoleVisit[]> {
      return (await api.visits({}, options)).data;
    },
    async duty(): Promise<DutyStatus> {
      return (await api.duty({}, options)).data;
    },
    async setDuty(onDuty: boolean): Promise<DutyStatus> {
      return (await api.setDuty({ body: { on_duty: onDuty } }, options)).data;
    },
    async accept(id: string): Promise<ConsoleVisit> {
      return (await api.accept(byId(id), options)).data;
    },
    async workspace(id: string): Promise<VisitWorkspace> {
      return (await api.workspace(byId(id), options)).data;
    },
    async start(id: string): Promise<ConsoleVisit> {
      return (await api.start(byId(id), options)).data;
    },
    /** Starts a video visit's call: an accepted or booked visit begins, the patient's waiting room rings. */
    async startCall(id: string): Promise<ConsoleVisit> {
      return (await api.startCall(byId(id), options)).data;
    },
    async cancel(id: string, reason: string): Promise<void> {
      await api.cancel({ ...byId(id), body: { reason } }, options);
    },
    async complete(id: string, summary: string): Promise<ConsoleVisit> {
      return (await api.complete({ ...byId(id), body: { summary } }, options)).data;
    },
    async saveNotes(id: string, notes: SaveVisitNotesRequest): Promise<VisitNotes> {
      return (await api.saveNotes({ ...byId(id), body: notes }, options)).data;
    },
    async addAddendum(id: string, body: string): Promise<VisitNotes> {
      return (await api.addAddendum({ ...byId(id), body: { body } }, options)).data;
    },
    /** The API's answer as it is (bytes and headers), for the download route to pass on. */
    async downloadDocument(id: string, documentId: string): Promise<Response> {
      return api.downloadDocument({ params: { id, documentId } }, options);
    },
  };
}

export type ConsoleApi = ReturnType<typeof consoleApi>;
