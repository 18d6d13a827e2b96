import { CANCELABLE_STATUSES } from "@ambercare/contracts/consultation-limits";
import { data, Form, Link, useActionData, useLoaderData } from "react-router";
import { EmptyState } from "#app/components/empty-state.tsx";
import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { StatusMessage, SubmitButton, translateMessage } from "#app/components/forms.tsx";
import { AccountPage } from "#app/components/page.tsx";
import { ConsultationCard } from "#app/features/consultations/consultation-card.tsx";
import { consultationApi } from "#app/features/consultations/consultations.server.ts";
import { currentVisits } from "#app/features/consultations/visit-history.ts";
import { isApiError } from "#app/lib/api-client.server.ts";
import { readFormData } from "#app/lib/form-body.server.ts";
import type { FormMessage } from "#app/lib/forms.ts";
import { useTranslation } from "#app/lib/i18n.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteUser } from "#app/lib/session.server.ts";
import type { Route } from "./+types/consultations";

export async function loader({ request, pattern, context }: Route.LoaderArgs) {
  const { user } = await requireRouteUser(request, pattern);
  const all = await consultationApi(request, user, context).list();
  return { consultations: currentVisits(all) };
}

export async function action({ request, pattern, context }: Route.ActionArgs) {
  const { user } = await requireRouteUser(request, pattern);
  const id = String((await readFormData(request)).get("consultation") ?? "");
  try {
    await consultationApi(request, user, context).cancel(id);
  } catch (error) {
    if (!isApiError(error) || error.status >= 500 || error.status === 0) throw error;
    return data<{ ok: boolean; message: FormMessage }>(
      { ok: false, message: { key: "consultation.list.cancelFailed" } },
      { status: error.status },
    );
  }
  return { ok: true, message: { key: "consultation.list.canceled" } as FormMessage };
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "consultations");

export default function ConsultationsPage() {
  const { t } = useTranslation();
  const { consultations } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return (
    <AccountPage page="consultations">
      <div className="mt-8 flex flex-col gap-4">
        <StatusMessage message={result?.ok ? result.message : undefined} />
        {result && !result.ok ? (
          <p role="alert" className="font-semibold text-danger">
            {translateMessage(t, result.message)}
          </p>
        ) : null}
        <h2 className="font-bold text-2xl text-ink">{t("consultation.list.currentHeading")}</h2>
        {consultations.length === 0 ? (
          <EmptyState
            title={t("consultation.list.none")}
            testId="consultations-empty"
            action={
              <>
                <Link to="/consultation/consult" className="button-primary">
                  {t("consultation.list.request")}
                </Link>
                <Link to="/find-a-doctor" className="link">
                  {t("consultation.list.findDoctor")}
                </Link>
              </>
            }
          >
            <p>{t("consultation.list.emptyText")}</p>
          </EmptyState>
        ) : (
          consultations.map((consultation) => (
            <ConsultationCard key={consultation.id} consultation={consultation}>
              <div className="mt-4 flex flex-wrap gap-4">
                <Link to={`/my-profile/consultations/${consultation.id}`} className="button-primary">
                  {t("consultation.list.open")}
                </Link>
                <Link to={`/my-profile/messages?consultation=${consultation.id}`} className="link">
                  {t("consultation.list.openThread")}
                </Link>
                {CANCELABLE_STATUSES.includes(consultation.status) ? (
                  <Form method="post">
                    <input type="hidden" name="consultation" value={consultation.id} />
                    <SubmitButton
                      className="button-secondary"
                      pendingLabel={t("consultation.list.canceling")}
                    >
                      {t("consultation.list.cancel")}
                    </SubmitButton>
                  </Form>
                ) : null}
              </div>
            </ConsultationCard>
          ))
        )}
        {/* A visit that ends (completed, canceled or expired) leaves this list: say where it went. */}
        <p className="text-ink" data-testid="history-note">
          {t("consultation.list.historyNote")}{" "}
          <Link to="/my-profile/past-appointments" className="link">
            {t("pages.pastAppointments.title")}
          </Link>
        </p>
      </div>
    </AccountPage>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
