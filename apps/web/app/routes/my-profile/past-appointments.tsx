import { RATING_COMMENT_MAX_LENGTH } from "@ambercare/contracts/provider-limits";
import { data, Form, Link, useActionData, useLoaderData } from "react-router";
import { EmptyState } from "#app/components/empty-state.tsx";
import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import {
  SelectField,
  StatusMessage,
  SubmitButton,
  Textarea,
  translateMessage,
} from "#app/components/forms.tsx";
import { AccountPage } from "#app/components/page.tsx";
import { ConsultationCard } from "#app/features/consultations/consultation-card.tsx";
import { consultationApi } from "#app/features/consultations/consultations.server.ts";
import { pastVisits } from "#app/features/consultations/visit-history.ts";
import { isApiError } from "#app/lib/api-client.server.ts";
import { readFormData } from "#app/lib/form-body.server.ts";
import type { FormMessage } from "#app/lib/forms.ts";
import { useTranslation } from "#app/lib/i18n.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteUser } from "#app/lib/session.server.ts";
import type { Route } from "./+types/past-appointments";

export async function loader({ request, pattern, context }: Route.LoaderArgs) {
  const { user } = await requireRouteUser(request, pattern);
  const all = await consultationApi(request, user, context).list();
  return { consultations: pastVisits(all) };
}

type RateResult = { consultation: string; ok: boolean; message: FormMessage };

/** "Rate this provider": 1–5 stars and an optional comment, through the care API's submit-rating. */
export async function action({ request, pattern, context }: Route.ActionArgs) {
  const { user } = await requireRouteUser(request, pattern);
  const form = await readFormData(request);
  const consultation = String(form.get("consultation") ?? "");
  const stars = Number(form.get("stars"));
  const comment = String(form.get("comment") ?? "").trim();
  if (!Number.isInteger(stars) || stars < 1 || stars > 5) {
    return data<RateResult>(
      { consultation, ok: false, message: { key: "consultation.past.starsRequired" } },
      { status: 400 },
    );
  }
  try {
    await consultationApi(request, user, context).rate({
      user_id: user.account.id,
      consultation_id: consultation,
      stars,
      comment: comment === "" ? null : comment.slice(0, RATING_COMMENT_MAX_LENGTH),
    });
  } catch (error) {
    if (!isApiError(error) || error.status >= 500 || error.status === 0) throw error;
    const message: FormMessage =
      error.status === 409
        ? { key: "consultation.past.alreadyRated" }
        : { key: "consultation.past.rateFailed" };
    return data<RateResult>({ consultation, ok: false, message }, { status: error.status });
  }
  return { consultation, ok: true, message: { key: "consultation.past.thanks" } } satisfies RateResult;
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "pastAppointments");

export default function PastAppointmentsPage() {
  const { t } = useTranslation();
  const { consultations } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return (
    <AccountPage page="pastAppointments">
      <div className="mt-8 flex flex-col gap-4">
        <StatusMessage message={result?.ok ? result.message : undefined} />
        <h2 className="font-bold text-2xl text-ink">{t("consultation.past.listHeading")}</h2>
        {consultations.length === 0 ? (
          <EmptyState
            title={t("consultation.past.none")}
            testId="past-appointments-empty"
            action={
              <>
                <Link to="/consultation/consult" className="button-primary">
                  {t("consultation.list.request")}
                </Link>
                <Link to="/my-profile/consultations" className="link">
                  {t("pages.consultations.title")}
                </Link>
              </>
            }
          >
            <p>{t("consultation.past.emptyText")}</p>
          </EmptyState>
        ) : null}
        {consultations.map((consultation) => {
          if (consultation.status !== "completed") {
            // Canceled or expired: it did not take place, so no summary, record or rating.
            return (
              <ConsultationCard key={consultation.id} consultation={consultation}>
                <p className="mt-4 text-ink">
                  {t(
                    consultation.status === "expired"
                      ? "consultation.past.expiredNote"
                      : "consultation.past.canceledNote",
                  )}
                </p>
                <p className="mt-2">
                  <Link to="/consultation/consult" className="link">
                    {t("consultation.past.requestAgain")}
                  </Link>
                </p>
              </ConsultationCard>
            );
          }
          const formId = `rate-${consultation.id}`;
          const failed =
            result && !result.ok && result.consultation === consultation.id ? result.message : undefined;
          return (
            <ConsultationCard key={consultation.id} consultation={consultation}>
              <h4 className="mt-4 font-semibold text-ink">{t("consultation.past.summaryHeading")}</h4>
              <p className="whitespace-pre-line text-ink">
                {consultation.visit_summary ?? t("consultation.past.noSummary")}
              </p>
              <p className="mt-2">
                <Link to={`/my-profile/medical-records#record-${consultation.id}`} className="link">
                  {t("consultation.past.openRecord")}
                </Link>
              </p>
              {consultation.rated || (result?.ok && result.consultation === consultation.id) ? (
                <p className="mt-4 text-ink">{t("consultation.past.rated")}</p>
              ) : consultation.provider ? (
                <Form
                  id={formId}
                  method="post"
                  className="mt-4 flex max-w-md flex-col gap-4"
                  aria-labelledby={`${formId}-title`}
                >
                  <h4 id={`${formId}-title`} className="font-semibold text-ink">
                    {t("consultation.past.rateHeading", { name: consultation.provider.name })}
                  </h4>
                  {failed ? (
                    <p role="alert" className="font-semibold text-danger">
                      {translateMessage(t, failed)}
                    </p>
                  ) : null}
                  <input type="hidden" name="consultation" value={consultation.id} />
                  <SelectField
                    formId={formId}
                    name="stars"
                    label={t("consultation.past.stars")}
                    options={[5, 4, 3, 2, 1].map((n) => ({
                      value: String(n),
                      label: t("consultation.past.starsOption", { stars: n }),
                    }))}
                  />
                  <Textarea
                    formId={formId}
                    name="comment"
                    label={t("consultation.past.comment")}
                    maxLength={RATING_COMMENT_MAX_LENGTH}
                    optional
                    maxRows={10}
                  />
                  <div>
                    <SubmitButton className="button-primary" pendingLabel={t("consultation.past.sending")}>
                      {t("consultation.past.rate")}
                    </SubmitButton>
                  </div>
                </Form>
              ) : null}
            </ConsultationCard>
          );
        })}
      </div>
    </AccountPage>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
