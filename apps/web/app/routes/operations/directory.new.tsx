import { data, redirect, useActionData, useLoaderData } from "react-router";
import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { fetchSpecializations } from "#app/features/directory/specializations.server.ts";
import { directoryEditorApi } from "#app/features/operations/directory-editor.server.ts";
import { saveProviderForm } from "#app/features/operations/directory-editor-actions.server.ts";
import { EMPTY_DRAFT } from "#app/features/operations/directory-editor-form.ts";
import { ProviderForm } from "#app/features/operations/provider-form.tsx";
import { readFormData } from "#app/lib/form-body.server.ts";
import { useTranslation } from "#app/lib/i18n.tsx";
import { requestLocale } from "#app/lib/locale.server.ts";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteOperator } from "#app/lib/session.server.ts";
import type { Route } from "./+types/directory.new";

/** /operations/directory/new: a new provider in the directory (ADR 065); then its edit page. */
export async function loader({ request, pattern, context }: Route.LoaderArgs) {
  await requireRouteOperator(request, pattern);
  const catalogue = (await fetchSpecializations(requestLocale(request), { context })) ?? [];
  return data({ catalogue }, { headers: { "Cache-Control": "private, no-store" } });
}

export async function action({ request, pattern, context }: Route.ActionArgs) {
  const { user } = await requireRouteOperator(request, pattern);
  const form = await readFormData(request);
  const saved = await saveProviderForm(form, (body) =>
    directoryEditorApi(request, user, context).create(body),
  );
  if (!saved.ok) return data(saved.failure, { status: saved.status });
  return redirect(`/operations/directory/${saved.provider.id}?created=1`);
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "operationsDirectoryNew");

export default function OperationsDirectoryNewPage() {
  const { t } = useTranslation();
  const { catalogue } = useLoaderData<typeof loader>();
  const failure = useActionData<typeof action>();
  return (
    <div className="page-container flex flex-col gap-6 py-10">
      <a href="/operations/directory" className="link">
        {t("operations.directory.back")}
      </a>
      <h1 className="font-bold text-3xl text-ink">{t("operations.directory.newHeading")}</h1>
      <ProviderForm
        draft={EMPTY_DRAFT}
        failure={failure}
        catalogue={catalogue}
        lapsed={[]}
        submitLabel={t("operations.directory.create")}
      />
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
