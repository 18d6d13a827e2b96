import { CONTACT_NAME_MAX_LENGTH } from "@ambercare/contracts/communications-constants";
import { data, redirect } from "react-router";
import {
  communicationFieldErrors,
  SUPPORT_FIELDS,
  SUPPORT_SENT_KEYS,
  type SupportField,
} from "#app/features/communications/communication-fields.ts";
import { supportForm } from "#app/features/communications/communication-forms.server.ts";
import { captchaOf, saveContactEntry } from "#app/features/communications/communications.server.ts";
import { isApiError } from "#app/lib/api-client.server.ts";
import { describeApiError } from "#app/lib/api-errors.ts";
import { env, isSecureRequest } from "#app/lib/env.server.ts";
import { readFormData } from "#app/lib/form-body.server.ts";
import { type FormResult, formError, formSuccess, readFields } from "#app/lib/forms.ts";
import { chooseLocale } from "#app/lib/locale.server.ts";
import { getUser, requireUser } from "#app/lib/session.server.ts";
import type { Route } from "./+types/support-message";

/**
 * `POST /support-message`: the support widget's message, saved as a contact entry with
 * source "widget" and this server's SUPPORT_SEGMENT. A logged-in patient sends it with their own
 * token and their account's address (it then appears in /my-profile/messages); a visitor gives
 * the address for the reply.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const formData = await readFormData(request);
  const session = getUser(request);
  const account = session ? (await requireUser(request)).account : null;
  const values = readFields(formData, SUPPORT_FIELDS);
  if (account) values.email = account.email;
  const parsed = supportForm.safeParse(values);
  if (!parsed.success) {
    return data<FormResult<SupportField>>(
      formError(values, communicationFieldErrors(parsed.error.issues, values)),
      { status: 400 },
    );
  }
  const { locale } = chooseLocale(request, { secure: isSecureRequest(request) });
  // The widget asks for no name: a patient's is on the account; a visitor is known by the address.
  const name = (
    account ? `${account.first_name} ${account.last_name}`.trim() || account.email : parsed.data.email
  ).slice(0, CONTACT_NAME_MAX_LENGTH);
  try {
    const saved = await saveContactEntry(
      request,
      account && session ? { ...session, account } : null,
      {
        name,
        email: parsed.data.email,
        topic: "general",
        message: parsed.data.message,
        captcha: captchaOf(formData),
        source: "widget",
        segment: env.SUPPORT_SEGMENT,
        locale,
      },
      context,
    );
    if (saved === null) {
      return data<FormResult<SupportField>>(
        formError(values, {}, { key: "auth.errors.serviceUnavailable" }),
        {
          status: 503,
        },
      );
    }
  } catch (error) {
    if (!isApiError(error)) throw error;
    const failure = describeApiError(error);
    return data<FormResult<SupportField>>(formError(values, {}, failure.message), { status: failure.status });
  }
  return formSuccess<SupportField>({ key: account ? SUPPORT_SENT_KEYS.patient : SUPPORT_SENT_KEYS.visitor });
}

/** The widget's messages are posted here; a visitor who opens the address goes to the contact page. */
export function loader() {
  return redirect("/contact-us");
}
