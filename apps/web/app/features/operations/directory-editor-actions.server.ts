import type { EditorProvider, ProviderInput } from "@ambercare/contracts/directory-editor";
import {
  type ProviderFormFailure,
  parseProviderForm,
} from "#app/features/operations/directory-editor-form.ts";
import { isApiError } from "#app/lib/api-client.server.ts";
import { describeApiError } from "#app/lib/api-errors.ts";

/**
 * Saves the provider form through `save` (create or update): a refused form comes back with what
 * was typed and why (400 here, the API's status otherwise), an accepted one with the provider.
 */
export async function saveProviderForm(
  form: FormData,
  save: (body: ProviderInput) => Promise<EditorProvider>,
): Promise<
  { ok: true; provider: EditorProvider } | { ok: false; status: number; failure: ProviderFormFailure }
> {
  const parsed = parseProviderForm(form);
  if (!parsed.ok) return { ok: false, status: 400, failure: parsed.failure };
  try {
    return { ok: true, provider: await save(parsed.body) };
  } catch (error) {
    if (!isApiError(error)) throw error;
    const described = describeApiError(error, { fallback: { key: "operations.errors.failed" } });
    const onSlug = error.code === "PROVIDER_SLUG_TAKEN";
    return {
      ok: false,
      status: described.status,
      failure: {
        draft: parsed.draft,
        result: {
          status: "error",
          values: {},
          fieldErrors: onSlug ? { slug: described.message } : {},
          ...(onSlug ? {} : { formError: described.message }),
        },
      },
    };
  }
}
