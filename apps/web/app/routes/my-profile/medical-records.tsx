import type { ConsultationDetail } from "@ambercare/contracts/consultation";
import { DOCUMENT_MAX_BYTES } from "@ambercare/contracts/consultation-limits";
import { data, Form, Link, useActionData, useLoaderData } from "react-router";
import { EmptyState } from "#app/components/empty-state.tsx";
import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { StatusMessage, SubmitButton, translateMessage } from "#app/components/forms.tsx";
import { AccountPage } from "#app/components/page.tsx";
import { PrintButton } from "#app/components/print-button.tsx";
import { consultationApi } from "#app/features/consultations/consultations.server.ts";
import { IntakeAnswers } from "#app/features/consultations/intake-answers.tsx";
import { optionKey } from "#app/features/consultations/intake-form.ts";
import { isApiError } from "#app/lib/api-client.server.ts";
import { useDateTime } from "#app/lib/date-time.ts";
import { readFormData } from "#app/lib/form-body.server.ts";
import type { FormMessage } from "#app/lib/forms.ts";
import { type TranslationKey, useTranslation } from "#app/lib/i18n.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteUser } from "#app/lib/session.server.ts";
import type { Route } from "./+types/medical-records";

export async function loader({ request, pattern, context }: Route.LoaderArgs) {
  const { user } = await requireRouteUser(request, pattern);
  const api = consultationApi(request, user, context);
  const [records, documents] = await Promise.all([api.visitRecords(), api.documents()]);
  // After those reads, so the log shown includes the ones this very visit to the page made.
  const audit = await api.auditLog();
  return { records, documents, audit: audit.data, auditTotal: audit.meta.total };
}

type RecordsAction = { ok: boolean; message: FormMessage };

export async function action({ request, pattern, context }: Route.ActionArgs) {
  const { user } = await requireRouteUser(request, pattern);
  const form = await readFormData(request);
  const api = consultationApi(request, user, context);
  const fail = (key: TranslationKey, status: number) =>
    data<RecordsAction>({ ok: false, message: { key } }, { status });
  try {
    if (form.get("intent") === "delete") {
      await api.deleteDocument(String(form.get("document") ?? ""));
      return { ok: true, message: { key: "records.deleted" } } satisfies RecordsAction;
    }
    const file = form.get("document");
    if (!(file instanceof File) || file.size === 0) return fail("records.errors.noFile", 400);
    if (file.size > DOCUMENT_MAX_BYTES) return fail("records.errors.tooLarge", 413);
    await api.uploadDocument(file);
    return { ok: true, message: { key: "records.uploaded" } } satisfies RecordsAction;
  } catch (error) {
    if (!isApiError(error) || error.status >= 500 || error.status === 0) throw error;
    if (error.status === 415) return fail("records.errors.type", 415);
    if (error.status === 413) return fail("records.errors.tooLarge", 413);
    return fail("records.errors.failed", error.status);
  }
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "medicalRecords");

function Record({ record }: { record: ConsultationDetail }) {
  const { t } = useTranslation();
  const when = useDateTime();
  return (
    <article
      id={`record-${record.id}`}
      className="rounded-md border-2 border-border p-4"
      aria-labelledby={`record-${record.id}-title`}
    >
      <h3 id={`record-${record.id}-title`} className="font-bold text-ink text-xl">
        {t(`consultation.types.${record.type}`)} · {when(record.created_at)} ·{" "}
        {t(`consultation.statuses.${record.status}`)}
      </h3>
      <h4 className="mt-3 font-semibold text-ink">{t("consultation.past.summaryHeading")}</h4>
      <p className="whitespace-pre-line text-ink">
        {record.visit_summary ?? t("consultation.past.noSummary")}
      </p>
      <h4 className="mt-3 font-semibold text-ink">{t("records.intakeHeading")}</h4>
      <IntakeAnswers intake={record.intake} />
    </article>
  );
}

export default function MedicalRecordsPage() {
  const { t } = useTranslation();
  const { records, documents, audit, auditTotal } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const when = useDateTime();
  return (
    <AccountPage page="medicalRecords">
      <div className="mt-8 flex flex-col gap-10">
        <section aria-labelledby="records-visits" className="flex flex-col gap-4">
          <div className="flex flex-wrap items-center justify-between gap-4">
            <h2 id="records-visits" className="font-bold text-2xl text-ink">
              {t("records.visitsHeading")}
            </h2>
            <PrintButton label={t("records.print")} />
          </div>
          {records.length === 0 ? (
            <EmptyState
              title={t("records.noVisits")}
              testId="records-empty"
              action={
                <>
                  <Link to="/consultation/consult" className="button-primary">
                    {t("consultation.list.request")}
                  </Link>
                  <a href="#records-documents" className="link">
                    {t("records.addDocument")}
                  </a>
                </>
              }
            >
              <p>{t("records.emptyText")}</p>
            </EmptyState>
          ) : null}
          {records.map((record) => (
            <Record key={record.id} record={record} />
          ))}
        </section>

        <section aria-labelledby="records-documents" className="flex flex-col gap-4">
          <h2 id="records-documents" className="font-bold text-2xl text-ink">
            {t("records.documentsHeading")}
          </h2>
          <StatusMessage message={result?.ok ? result.message : undefined} />
          {result && !result.ok ? (
            <p role="alert" className="font-semibold text-danger">
              {translateMessage(t, result.message)}
            </p>
          ) : null}
          <Form method="post" encType="multipart/form-data" className="flex max-w-md flex-col gap-3">
            <input type="hidden" name="intent" value="upload" />
            <label htmlFor="records-document" className="font-semibold text-ink">
              {t("records.fileLabel")}
            </label>
            <p id="records-document-hint" className="text-ink-muted text-sm">
              {t("records.fileHint")}
            </p>
            <input
              id="records-document"
              name="document"
              type="file"
              required
              accept="application/pdf,image/jpeg,image/png,.pdf,.jpg,.jpeg,.png"
              aria-describedby="records-document-hint"
              className="text-ink"
            />
            <div>
              <SubmitButton intent="upload" className="button-primary" pendingLabel={t("records.uploading")}>
                {t("records.upload")}
              </SubmitButton>
            </div>
          </Form>
          {documents.length === 0 ? (
            <p className="text-ink">{t("records.noDocuments")}</p>
          ) : (
            <ul className="flex flex-col gap-2">
              {documents.map((document) => (
                <li key={document.id} className="flex flex-wrap items-center gap-4 text-ink">
                  <a
                    href={`/my-profile/medical-records/documents/${document.id}`}
                    className="link break-all"
                    download
                  >
                    {document.file_name}
                  </a>
                  <span className="text-ink-muted text-sm">
                    {t("records.documentMeta", {
                      size: Math.max(1, Math.round(document.size / 1024)),
                      date: when(document.created_at),
                    })}
                  </span>
                  <Form method="post">
                    <input type="hidden" name="intent" value="delete" />
                    <input type="hidden" name="document" value={document.id} />
                    <button
                      type="submit"
                      className="link"
                      aria-label={t("records.deleteNamed", { name: document.file_name })}
                    >
                      {t("records.delete")}
                    </button>
                  </Form>
                </li>
              ))}
            </ul>
          )}
        </section>

        <section aria-labelledby="records-audit" className="flex flex-col gap-4">
          <h2 id="records-audit" className="font-bold text-2xl text-ink">
            {t("records.auditHeading")}
          </h2>
          <p className="text-ink-muted">
            {t("records.auditIntro", { shown: audit.length, total: auditTotal })}
          </p>
          <div className="overflow-x-auto">
            <table className="min-w-full text-left text-ink text-sm">
              <thead>
                <tr>
                  <th scope="col" className="py-1 pr-4">
                    {t("records.audit.when")}
                  </th>
                  <th scope="col" className="py-1 pr-4">
                    {t("records.audit.who")}
                  </th>
                  <th scope="col" className="py-1 pr-4">
                    {t("records.audit.what")}
                  </th>
                  <th scope="col" className="py-1 pr-4">
                    {t("records.audit.from")}
                  </th>
                </tr>
              </thead>
              <tbody>
                {audit.map((entry) => (
                  <tr key={entry.id} className="border-border border-t">
                    <td className="py-1 pr-4">{when(entry.at)}</td>
                    <td className="py-1 pr-4">
                      {entry.actor === "clinician"
                        ? t("records.audit.actors.clinician", { name: entry.actor_name ?? "" })
                        : t(`records.audit.actors.${entry.actor}`)}
                    </td>
                    <td className="py-1 pr-4">
                      {t(`records.audit.actions.${optionKey(entry.action)}` as TranslationKey)}
                      {entry.count > 1 ? ` (${t("records.audit.times", { count: entry.count })})` : null}
                    </td>
                    <td className="py-1 pr-4">{entry.ip ?? "—"}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      </div>
    </AccountPage>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
