import { LIST_TOKEN_MAX_LENGTH, listTokenEmail } from "@ambercare/contracts/communications-constants";
import { data, Form, Link, useActionData, useLoaderData } from "react-router";
import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { ErrorSummary, StatusMessage, SubmitButton } from "#app/components/forms.tsx";
import { PageHeading } from "#app/components/page.tsx";
import { changeSubscription } from "#app/features/communications/communications.server.ts";
import { isApiError } from "#app/lib/api-client.server.ts";
import { describeApiError } from "#app/lib/api-errors.ts";
import { readFormData } from "#app/lib/form-body.server.ts";
import { type FormResult, formError } from "#app/lib/forms.ts";
import { useTranslation } from "#app/lib/i18n.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteAccess } from "#app/lib/session.server.ts";
import type { Route } from "./+types/unsubscribe";

function tokenOf(value: FormDataEntryValue | string | null): string | null {
  return typeof value === "string" && value.length >= 16 && value.length <= LIST_TOKEN_MAX_LENGTH
    ? value
    : null;
}

/**
 * The unsubscribe link of every marketing e-mail (`/unsubscribe?token=…`, signed by the API over the
 * address and the list). One press of "Unsubscribe" (a POST; opening the link changes nothing),
 * no login; then "Resubscribe" undoes it. Without a token the page explains where the link is
 * (ADR 017): an address typed here could be anyone's.
 */
export async function loader({ request, pattern }: Route.LoaderArgs) {
  await requireRouteAccess(request, pattern);
  const token = tokenOf(new URL(request.url).searchParams.get("token"));
  return { token, email: token ? listTokenEmail(token) : null };
}

type Change = "unsubscribe" | "resubscribe";
type UnsubscribeResult = FormResult<"token"> | { status: "done"; change: Change };

export async function action({ request, pattern }: Route.ActionArgs) {
  await requireRouteAccess(request, pattern);
  const formData = await readFormData(request);
  const change: Change = formData.get("intent") === "resubscribe" ? "resubscribe" : "unsubscribe";
  // A failure reads 'Failed to unsubscribe' unless the API said something more useful.
  const fallback = {
    key: change === "unsubscribe" ? "lists.errors.unsubscribeFailed" : "lists.errors.resubscribeFailed",
  } as const;
  const token = tokenOf(formData.get("token"));
  const email = token ? listTokenEmail(token) : null;
  if (!token || !email) {
    return data<UnsubscribeResult>(formError({ token: "" }, {}, { key: "lists.errors.linkInvalid" }), {
      status: 400,
    });
  }
  try {
    await changeSubscription(change, { email, token });
    return data<UnsubscribeResult>({ status: "done", change });
  } catch (error) {
    if (!isApiError(error)) throw error;
    const failure = describeApiError(error, { fallback });
    return data<UnsubscribeResult>(formError({ token: "" }, {}, failure.message), { status: failure.status });
  }
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "unsubscribe");

const FORM_ID = "unsubscribe";

export default function UnsubscribePage() {
  const { t } = useTranslation();
  const { token, email } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const done = result?.status === "done" ? result : undefined;
  const failed = result?.status === "error" ? result : undefined;
  const unsubscribed = done?.change === "unsubscribe";
  // After unsubscribing, the button offers the way back; otherwise (first visit, resubscribed) it unsubscribes.
  const next: Change = unsubscribed ? "resubscribe" : "unsubscribe";
  return (
    <div className="page-container py-10 tablet:py-14">
      <PageHeading page="unsubscribe" />
      <div className="mt-8 max-w-2xl">
        {token ? (
          <>
            <ErrorSummary formId={FORM_ID} result={failed} order={[]} />
            <StatusMessage
              message={
                done
                  ? { key: unsubscribed ? "lists.unsubscribe.done" : "lists.unsubscribe.resubscribed" }
                  : undefined
              }
              title={
                done
                  ? t(unsubscribed ? "lists.unsubscribe.doneTitle" : "lists.unsubscribe.resubscribedTitle")
                  : undefined
              }
              details={unsubscribed ? t("lists.unsubscribe.notAffected") : undefined}
            />
            <Form method="post" className="flex flex-col gap-4">
              {done ? null : (
                <p className="text-ink text-lg">
                  {email
                    ? t("lists.unsubscribe.question", { email })
                    : t("lists.unsubscribe.questionNoEmail")}
                </p>
              )}
              {unsubscribed ? <p className="text-ink">{t("lists.unsubscribe.changedMind")}</p> : null}
              <input type="hidden" name="token" value={token} />
              <input type="hidden" name="intent" value={next} />
              <div>
                <SubmitButton
                  intent={next}
                  className={unsubscribed ? "button-secondary" : "button-primary w-full tablet:w-auto"}
                  pendingLabel={t(
                    next === "unsubscribe" ? "lists.unsubscribe.working" : "lists.unsubscribe.resubscribing",
                  )}
                >
                  {t(next === "unsubscribe" ? "lists.unsubscribe.button" : "lists.unsubscribe.resubscribe")}
                </SubmitButton>
              </div>
            </Form>
          </>
        ) : (
          <section aria-labelledby="unsubscribe-no-token" className="flex flex-col gap-3">
            <h2 id="unsubscribe-no-token" className="font-semibold text-ink text-xl">
              {t("lists.unsubscribe.noTokenTitle")}
            </h2>
            <p className="text-ink">{t("lists.unsubscribe.noToken")}</p>
            <p className="text-ink">
              {t("lists.unsubscribe.noTokenHelp")}{" "}
              <Link to="/contact-us" className="link">
                {t("lists.unsubscribe.contactLink")}
              </Link>
            </p>
          </section>
        )}
      </div>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
