import { LOCALES } from "@ambercare/contracts/locales";
import { isApiError } from "#app/lib/api-client.server.ts";
import { describeApiError } from "#app/lib/api-errors.ts";
import { type FieldErrors, type FormMessage, formError } from "#app/lib/forms.ts";
import type { InviteField } from "./invite-form.ts";
import type { OperationsApi } from "./operations.server.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export type TeamActionResult =
  | { status: 200; ok: true; message: FormMessage }
  | { status: number; ok: false; message: FormMessage }
  | { status: number; ok: false; invite: ReturnType<typeof formError<InviteField>> };

/** A refused call, said in the visitor's words; no answer or a 5xx is the site's error page. */
function refused(error: unknown): TeamActionResult {
  if (!isApiError(error) || error.status >= 500 || error.status === 0) throw error;
  const { message } = describeApiError(error, { fallback: { key: "operations.errors.failed" } });
  return { status: error.status, ok: false, message };
}

/**
 * The team page's forms: `intent=invite` (`email`, `provider_slug`, `locale`) and
 * `intent=disable|enable|end-sessions` (`user_id`, `email` for the message). Each is one API call;
 * the API writes the operations log.
 */
export async function runTeamAction(
  api: Pick<OperationsApi, "invite" | "teamStep">,
  form: FormData,
): Promise<TeamActionResult> {
  const field = (name: string) => String(form.get(name) ?? "").trim();
  const intent = field("intent");
  if (intent === "invite") {
    const values = { email: field("email"), provider_slug: field("provider_slug"), locale: field("locale") };
    const errors: FieldErrors<InviteField> = {};
    if (!EMAIL.test(values.email) || values.email.length > 254)
      errors.email = { key: "operations.errors.emailInvalid" };
    if (!values.provider_slug || values.provider_slug.length > 120)
      errors.provider_slug = { key: "operations.errors.providerRequired" };
    const locale = (LOCALES as readonly string[]).includes(values.locale)
      ? (values.locale as (typeof LOCALES)[number])
      : undefined;
    if (Object.keys(errors).length > 0) return { status: 400, ok: false, invite: formError(values, errors) };
    try {
      const invited = await api.invite({
        email: values.email,
        provider_slug: values.provider_slug,
        ...(locale ? { locale } : {}),
      });
      const key = invited.outcome === "invited" ? "operations.invite.sent" : "operations.invite.resent";
      return { status: 200, ok: true, message: { key, values: { email: invited.email } } };
    } catch (error) {
      if (!isApiError(error) || error.status >= 500 || error.status === 0) throw error;
      const failure = describeApiError(error, { fallback: { key: "operations.errors.failed" } });
      const onEmail = error.code === "CLINICIAN_EMAIL_TAKEN";
      return {
        status: failure.status,
        ok: false,
        invite: formError(
          values,
          onEmail ? { email: failure.message } : {},
          onEmail ? undefined : failure.message,
        ),
      };
    }
  }
  const userId = field("user_id");
  const email = field("email");
  const step =
    intent === "disable"
      ? "disable"
      : intent === "enable"
        ? "enable"
        : intent === "end-sessions"
          ? "endSessions"
          : null;
  if (!step || !UUID.test(userId)) {
    return { status: 400, ok: false, message: { key: "operations.errors.failed" } };
  }
  try {
    const done = await api.teamStep(step, userId);
    const values = { email, count: done.sessions_ended };
    const key =
      step === "disable"
        ? "operations.team.disabledDone"
        : step === "enable"
          ? "operations.team.enabledDone"
          : "operations.team.sessionsEnded";
    return { status: 200, ok: true, message: { key, values } };
  } catch (error) {
    return refused(error);
  }
}
