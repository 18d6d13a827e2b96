import { LIST_TOKEN_MAX_LENGTH } from "@ambercare/contracts/communications-constants";
import { data, Form, useActionData, useLoaderData } from "react-router";
import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { ErrorSummary, StatusMessage, SubmitButton } from "#app/components/forms.tsx";
import { Notice, PageHeading } from "#app/components/page.tsx";
import { confirmSubscription } from "#app/features/communications/communications.server.ts";
import { isApiError } from "#app/lib/api-client.server.ts";
import { describeApiError } from "#app/lib/api-errors.ts";
import { readFormData } from "#app/lib/form-body.server.ts";
import { type FormResult, formError } from "#app/lib/forms.ts";
import { useTranslation } from "#app/lib/i18n.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteAccess } from "#app/lib/session.server.ts";
import type { Route } from "./+types/confirm-subscription";

/** A token of a sensible size from `?token=`, else null (the page then explains what it is for). */
function tokenOf(value: FormDataEntryValue | string | null): string | null {
  return typeof value === "string" && value.length >= 16 && value.length <= LIST_TOKEN_MAX_LENGTH
    ? value
    : null;
}

/**
 * The confirmation link of the newsletter's double opt-in lands here. Opening the link confirms
 * nothing by itself: mail scanners open links too. The visitor presses "Confirm" (a POST), ADR 017.
 */
export async function loader({ request, pattern }: Route.LoaderArgs) {
  await requireRouteAccess(request, pattern);
  return { token: tokenOf(new URL(request.url).searchParams.get("token")) };
}

type ConfirmResult = FormResult<"token"> | { status: "confirmed"; email: string };

export async function action({ request, pattern }: Route.ActionArgs) {
  await requireRouteAccess(request, pattern);
  const token = tokenOf((await readFormData(request)).get("token"));
  if (!token) {
    return data<ConfirmResult>(formError({ token: "" }, {}, { key: "lists.errors.confirmationInvalid" }), {
      status: 400,
    });
  }
  try {
    const status = await confirmSubscription(token);
    return data<ConfirmResult>({ status: "confirmed", email: status.email });
  } catch (error) {
    if (!isApiError(error)) throw error;
    const failure = describeApiError(error, { fallback: { key: "lists.errors.confirmationInvalid" } });
    return data<ConfirmResult>(formError({ token: "" }, {}, failure.message), { status: failure.status });
  }
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "confirmSubscription");

const FORM_ID = "confirm-subscription";

export default function ConfirmSubscriptionPage() {
  const { t } = useTranslation();
  const { token } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const confirmed = result?.status === "confirmed" ? result : undefined;
  const failed = result?.status === "error" ? result : undefined;
  return (
    <div className="page-container py-10 tablet:py-14">
      <PageHeading page="confirmSubscription" />
      <div className="mt-8 max-w-2xl">
        <ErrorSummary formId={FORM_ID} result={failed} order={[]} />
        <StatusMessage
          message={confirmed ? { key: "lists.confirm.done", values: { email: confirmed.email } } : undefined}
          title={confirmed ? t("lists.confirm.doneTitle") : undefined}
        />
        {token && !confirmed ? (
          <Form method="post" className="flex flex-col gap-4">
            <p className="text-ink">{t("lists.confirm.lead")}</p>
            <input type="hidden" name="token" value={token} />
            <div>
              <SubmitButton pendingLabel={t("lists.confirm.confirming")}>
                {t("lists.confirm.button")}
              </SubmitButton>
            </div>
          </Form>
        ) : null}
        {token ? null : <Notice>{t("lists.confirm.noToken")}</Notice>}
      </div>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
