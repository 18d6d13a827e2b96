import { data } from "react-router";
import { SUBSCRIBE_FIELDS } from "#app/features/communications/communication-fields.ts";
import { subscribeForm } from "#app/features/communications/communication-forms.server.ts";
import { addToContacts, captchaOf } from "#app/features/communications/communications.server.ts";
import { isApiError } from "#app/lib/api-client.server.ts";
import { describeApiError } from "#app/lib/api-errors.ts";
import { isSecureRequest } from "#app/lib/env.server.ts";
import { readFormData } from "#app/lib/form-body.server.ts";
import { type FormMessage, readFields } from "#app/lib/forms.ts";
import { chooseLocale } from "#app/lib/locale.server.ts";

/**
 * Newsletter sign-up: the "notify me" form of the soon pages (/blog, /blog/{page},
 * /medical-providers) and the footer form (routes/newsletter.ts). Both add the address to the
 * e-mail list with double opt-in (`POST /api/sendgrid/add-to-contacts`, shared public bearer): the
 * API e-mails a confirmation link, and only a confirmed address receives mail. The answer is the
 * same whether or not the address was on the list already.
 */
export type NotifyMeResult =
  | { status: "invalid"; email: string }
  | { status: "sent" }
  | { status: "error"; email: string; message: FormMessage; captcha?: true };

export async function subscribe(
  request: Request,
  formData: FormData,
  context: { clientIp?: string } | undefined,
): Promise<{ result: NotifyMeResult; status: number }> {
  const values = readFields(formData, SUBSCRIBE_FIELDS);
  const parsed = subscribeForm.safeParse(values);
  if (!parsed.success) {
    return { result: { status: "invalid", email: values.email }, status: 400 };
  }
  const { locale } = chooseLocale(request, { secure: isSecureRequest(request) });
  try {
    await addToContacts({ email: parsed.data.email, captcha: captchaOf(formData), locale }, context);
    return { result: { status: "sent" }, status: 200 };
  } catch (error) {
    if (!isApiError(error)) throw error;
    const failure = describeApiError(error);
    return {
      result: {
        status: "error",
        email: values.email,
        message: failure.message,
        ...(failure.field === "captcha" ? { captcha: true as const } : {}),
      },
      status: failure.status,
    };
  }
}

/** The soon pages' action. */
export async function notifyMeAction(request: Request, context?: { clientIp?: string }) {
  const { result, status } = await subscribe(request, await readFormData(request), context);
  return data<NotifyMeResult>(result, { status });
}
