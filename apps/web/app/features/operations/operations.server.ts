import type {
  AccessLogEntry,
  AccessLogQuery,
  InviteClinicianRequest,
  OperatorActionRow,
  OperatorVisit,
  RefundRequest,
  TeamMember,
  VisitPayment,
  VisitSearchQuery,
} from "@ambercare/contracts/operations";
import type { HoursEditorApi } from "#app/features/scheduling/hours-editor.server.ts";
import { userApi, visitorHeaders } from "#app/lib/api.server.ts";
import type { SessionUser } from "#app/lib/session.server.ts";

type Context = { clientIp?: string } | undefined;

/**
 * The operations console's calls (main API, `/api/operations/…`, ADR 065) with the operator's own
 * token. Each names the visitor's address (signed, ADR 025): the operations log and the patients'
 * access logs record where the operator was, not the web server's address.
 */
export function operationsApi(request: Request, user: SessionUser, context: Context) {
  const api = userApi(request, user).operations;
  const options = { headers: visitorHeaders(context) };
  return {
    async team(): Promise<TeamMember[]> {
      return (await api.team({}, options)).data;
    },
    async invite(body: InviteClinicianRequest) {
      return (await api.invite({ body }, options)).data;
    },
    async teamStep(step: "disable" | "enable" | "endSessions", userId: string) {
      return (await api[step]({ params: { userId } }, options)).data;
    },
    /** One clinician's hours, set or corrected as the clinician would (ADR 059): the hours editor's calls. */
    clinicianHours(userId: string): HoursEditorApi {
      return {
        schedule: async () => (await api.clinicianSchedule({ params: { userId } }, options)).data,
        saveSchedule: async (body) =>
          (await api.putClinicianSchedule({ params: { userId }, body }, options)).data,
        addException: async (body) =>
          (await api.addClinicianException({ params: { userId }, body }, options)).data,
        removeException: async (id) => {
          await api.deleteClinicianException({ params: { userId, id } }, options);
        },
      };
    },
    async actions(page: number): Promise<{ rows: OperatorActionRow[]; total: number; perPage: number }> {
      const answer = await api.actions({ query: { page } }, options);
      return { rows: answer.data, total: answer.meta.total, perPage: answer.meta.per_page };
    },
    async accessLog(
      query: AccessLogQuery,
    ): Promise<{ rows: AccessLogEntry[]; total: number; perPage: number }> {
      const answer = await api.accessLog({ query }, options);
      return { rows: answer.data, total: answer.meta.total, perPage: answer.meta.per_page };
    },
    /** The same search as the API's CSV, a Response to pass on (lib/download.server.ts). */
    async accessLogCsv(query: AccessLogQuery): Promise<Response> {
      return api.accessLogCsv({ query }, options);
    },
    async visits(query: VisitSearchQuery): Promise<OperatorVisit[]> {
      return (await api.visits({ query }, options)).data;
    },
    async visit(id: string) {
      return (await api.visit({ params: { id } }, options)).data;
    },
    async refund(id: string, body: RefundRequest): Promise<VisitPayment> {
      return (await api.refund({ params: { id }, body }, options)).data;
    },
  };
}

export type OperationsApi = ReturnType<typeof operationsApi>;
