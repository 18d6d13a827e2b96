import { data } from "react-router";
import { consoleApi } from "#app/features/care-console/console.server.ts";
import { runVisitAction } from "#app/features/care-console/visit-actions.server.ts";
import { readFormData } from "#app/lib/form-body.server.ts";
import { requireRouteClinician } from "#app/lib/session.server.ts";
import type { Route } from "./+types/visit-notes";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * `POST /console/visits/:id/notes`: the workspace's save-as-you-type, as JSON for the page's
 * scripts: `{notes}` once saved, else `{error, code}` with the API's status, and for a save on an
 * older version the newer notes (`latest`) so the page shows them beside what the clinician typed.
 * The workspace page's own access rule applies (clinicians only).
 */
export async function action({ request, pattern, params, context }: Route.ActionArgs) {
  const { user } = await requireRouteClinician(request, pattern);
  if (!UUID.test(params.id)) throw data({ error: "not_found" }, { status: 404 });
  const form = await readFormData(request);
  form.set("intent", "notes");
  const result = await runVisitAction(consoleApi(request, user, context), params.id, form);
  const headers = { "Cache-Control": "private, no-store" };
  if (result.ok && result.notes) return data({ notes: result.notes }, { headers });
  return data(
    { error: result.message, code: result.code ?? null, latest: result.latest ?? null },
    { status: result.status, headers },
  );
}
