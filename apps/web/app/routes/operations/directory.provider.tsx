import { PROVIDER_PHOTO_MAX_BYTES } from "@ambercare/contracts/directory-editor";
import { data, Form, useActionData, useLoaderData, useSearchParams } from "react-router";
import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { ErrorSummary, StatusMessage, SubmitButton } from "#app/components/forms.tsx";
import { ProviderAvatar } from "#app/features/directory/directory.tsx";
import { fetchSpecializations } from "#app/features/directory/specializations.server.ts";
import { directoryEditorApi } from "#app/features/operations/directory-editor.server.ts";
import { saveProviderForm } from "#app/features/operations/directory-editor-actions.server.ts";
import { draftOf, type ProviderFormFailure } from "#app/features/operations/directory-editor-form.ts";
import { ProviderForm } from "#app/features/operations/provider-form.tsx";
import { isApiError } from "#app/lib/api-client.server.ts";
import { describeApiError } from "#app/lib/api-errors.ts";
import { useDateTime } from "#app/lib/date-time.ts";
import { readFormData } from "#app/lib/form-body.server.ts";
import { type FormErrorResult, type FormMessage, fieldId } from "#app/lib/forms.ts";
import { useTranslation } from "#app/lib/i18n.tsx";
import { requestLocale } from "#app/lib/locale.server.ts";
import { pageMeta } from "#app/lib/meta.ts";
import { orNotFound } from "#app/lib/not-found.server.ts";
import { requireRouteOperator } from "#app/lib/session.server.ts";
import type { Route } from "./+types/directory.provider";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PHOTO_FORM = "photo";

/**
 * /operations/directory/:id: a provider's details and licences (one form), their photo (an upload
 * form) and whether patients find them (unlist, list again), each a plain form (ADR 065).
 */
export async function loader({ request, pattern, params, context }: Route.LoaderArgs) {
  const { user } = await requireRouteOperator(request, pattern);
  if (!UUID.test(params.id)) throw data(null, { status: 404 });
  const [provider, catalogue] = await Promise.all([
    orNotFound(() => directoryEditorApi(request, user, context).get(params.id)),
    fetchSpecializations(requestLocale(request), { context }),
  ]);
  return data(
    { provider, catalogue: catalogue ?? [] },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

type EditAction =
  | { intent: "save"; ok: false; failure: ProviderFormFailure }
  | { intent: "photo"; ok: false; result: FormErrorResult<"photo"> }
  | { intent: "save" | "photo" | "unlist" | "relist"; ok: true; message: FormMessage }
  | { intent: "unlist" | "relist"; ok: false; message: FormMessage };

export async function action({ request, pattern, params, context }: Route.ActionArgs) {
  const { user } = await requireRouteOperator(request, pattern);
  if (!UUID.test(params.id)) throw data(null, { status: 404 });
  const api = directoryEditorApi(request, user, context);
  const form = await readFormData(request);
  const intent = String(form.get("intent") ?? "");
  if (intent === "photo") {
    const file = form.get("photo");
    const refuse = (message: FormMessage, status: number) =>
      data<EditAction>(
        { intent, ok: false, result: { status: "error", values: {}, fieldErrors: { photo: message } } },
        { status },
      );
    if (!(file instanceof File) || file.size === 0)
      return refuse({ key: "operations.directory.errors.photoMissing" }, 400);
    if (file.size > PROVIDER_PHOTO_MAX_BYTES)
      return refuse({ key: "operations.directory.errors.photoTooLarge" }, 413);
    try {
      await api.photo(params.id, file);
      return data<EditAction>({ intent, ok: true, message: { key: "operations.directory.photoSaved" } });
    } catch (error) {
      if (!isApiError(error)) throw error;
      const failure = describeApiError(error, { fallback: { key: "operations.errors.failed" } });
      return refuse(failure.message, failure.status);
    }
  }
  if (intent === "unlist" || intent === "relist") {
    try {
      await api.setListed(params.id, intent === "relist");
      return data<EditAction>({
        intent,
        ok: true,
        message: {
          key:
            intent === "relist" ? "operations.directory.relistedDone" : "operations.directory.unlistedDone",
        },
      });
    } catch (error) {
      if (!isApiError(error)) throw error;
      const failure = describeApiError(error, { fallback: { key: "operations.errors.failed" } });
      return data<EditAction>({ intent, ok: false, message: failure.message }, { status: failure.status });
    }
  }
  const saved = await saveProviderForm(form, (body) => api.update(params.id, body));
  if (!saved.ok) {
    return data<EditAction>({ intent: "save", ok: false, failure: saved.failure }, { status: saved.status });
  }
  return data<EditAction>({ intent: "save", ok: true, message: { key: "operations.directory.saved" } });
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "operationsDirectoryProvider");

export default function OperationsDirectoryProviderPage() {
  const { t } = useTranslation();
  const when = useDateTime("dateTime");
  const { provider, catalogue } = useLoaderData<typeof loader>();
  const outcome = useActionData<typeof action>();
  const [search] = useSearchParams();
  const name = `${provider.first_name} ${provider.last_name}, ${provider.credentials}`;
  const done: FormMessage | undefined = outcome?.ok
    ? outcome.message
    : search.get("created") === "1" && !outcome
      ? { key: "operations.directory.created" }
      : undefined;
  const saveFailure = outcome && !outcome.ok && outcome.intent === "save" ? outcome.failure : undefined;
  const photoFailure = outcome && !outcome.ok && outcome.intent === "photo" ? outcome.result : undefined;
  const listingFailure =
    outcome && !outcome.ok && (outcome.intent === "unlist" || outcome.intent === "relist")
      ? outcome
      : undefined;
  const photoId = fieldId(PHOTO_FORM, "photo");
  return (
    <div className="page-container flex flex-col gap-8 py-10">
      <a href="/operations/directory" className="link">
        {t("operations.directory.back")}
      </a>
      <h1 className="break-words font-bold text-3xl text-ink">
        {t("operations.directory.editHeading", { name })}
      </h1>
      <StatusMessage message={done} />

      <section aria-labelledby="listing-title" className="flex max-w-3xl flex-col gap-3">
        <h2 id="listing-title" className="font-semibold text-ink text-xl">
          {t("operations.directory.listingHeading")}
        </h2>
        {listingFailure ? (
          <p role="alert" className="font-semibold text-danger">
            {"key" in listingFailure.message ? t(listingFailure.message.key) : listingFailure.message.text}
          </p>
        ) : null}
        <p>
          {provider.unlisted_at
            ? t("operations.directory.unlistedNow", { date: when(provider.unlisted_at) })
            : t("operations.directory.listedNow")}
        </p>
        <Form method="post">
          <input type="hidden" name="intent" value={provider.unlisted_at ? "relist" : "unlist"} />
          <SubmitButton
            intent={provider.unlisted_at ? "relist" : "unlist"}
            pendingLabel={t("operations.working")}
            className={
              provider.unlisted_at
                ? "button-primary w-full tablet:w-auto"
                : "button-secondary w-full tablet:w-auto"
            }
          >
            {provider.unlisted_at ? t("operations.directory.relist") : t("operations.directory.unlist")}
          </SubmitButton>
        </Form>
      </section>

      <section aria-labelledby="photo-title" className="flex max-w-3xl flex-col gap-3">
        <h2 id="photo-title" className="font-semibold text-ink text-xl">
          {t("operations.directory.photoHeading")}
        </h2>
        <div className="flex items-center gap-4">
          <ProviderAvatar provider={provider} size="lg" />
          <p className="text-ink-muted">
            {provider.photo ? t("operations.directory.photoCurrent") : t("operations.directory.photoNone")}
          </p>
        </div>
        <ErrorSummary formId={PHOTO_FORM} result={photoFailure} order={["photo"]} />
        <Form method="post" encType="multipart/form-data" className="flex flex-col gap-3">
          <input type="hidden" name="intent" value="photo" />
          <label htmlFor={photoId} className="font-semibold text-ink">
            {t("operations.directory.photoFile")}
          </label>
          <p id={`${photoId}-hint`} className="text-ink-muted text-sm">
            {t("operations.directory.photoHint")}
          </p>
          {photoFailure?.fieldErrors.photo ? (
            <p id={`${photoId}-error`} className="font-semibold text-danger">
              {"key" in photoFailure.fieldErrors.photo
                ? t(photoFailure.fieldErrors.photo.key)
                : photoFailure.fieldErrors.photo.text}
            </p>
          ) : null}
          <input
            id={photoId}
            type="file"
            name="photo"
            accept="image/jpeg,image/png,image/webp"
            aria-describedby={`${photoId}-hint${photoFailure ? ` ${photoId}-error` : ""}`}
            aria-invalid={photoFailure ? true : undefined}
            className="max-w-full"
          />
          <div>
            <SubmitButton intent="photo" pendingLabel={t("operations.working")}>
              {t("operations.directory.photoSubmit")}
            </SubmitButton>
          </div>
        </Form>
      </section>

      <section aria-labelledby="details-title" className="flex flex-col gap-3">
        <h2 id="details-title" className="sr-only">
          {t("operations.directory.details")}
        </h2>
        <ProviderForm
          // A new form after each save: it shows what the API holds now (a removed licence gone).
          key={outcome?.ok ? JSON.stringify(provider) : "form"}
          draft={draftOf(provider)}
          failure={saveFailure}
          catalogue={catalogue}
          lapsed={provider.licences.filter((licence) => !licence.in_force).map((licence) => licence.state)}
          submitLabel={t("operations.directory.save")}
        />
      </section>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
