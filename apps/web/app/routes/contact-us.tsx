import {
  CAPTCHA_ACTIONS,
  CONTACT_MESSAGE_MAX_LENGTH,
  CONTACT_NAME_MAX_LENGTH,
} from "@ambercare/contracts/communications-constants";
import { data, Form, useActionData } from "react-router";
import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import {
  EmailField,
  ErrorSummary,
  SelectField,
  StatusMessage,
  SubmitButton,
  Textarea,
  TextField,
} from "#app/components/forms.tsx";
import { PageHeading } from "#app/components/page.tsx";
import { CaptchaField } from "#app/features/communications/captcha-field.tsx";
import {
  CONTACT_FIELDS,
  CONTACT_TOPICS,
  type ContactField,
  communicationFieldErrors,
  TOPIC_LABELS,
} from "#app/features/communications/communication-fields.ts";
import { contactForm } from "#app/features/communications/communication-forms.server.ts";
import { captchaOf, saveContactEntry } from "#app/features/communications/communications.server.ts";
import { isApiError } from "#app/lib/api-client.server.ts";
import { describeApiError } from "#app/lib/api-errors.ts";
import { isSecureRequest } from "#app/lib/env.server.ts";
import { readFormData } from "#app/lib/form-body.server.ts";
import { errorsOf, type FormResult, formError, formSuccess, readFields, successOf } from "#app/lib/forms.ts";
import { useTranslation } from "#app/lib/i18n.tsx";
import { chooseLocale } from "#app/lib/locale.server.ts";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteAccess } from "#app/lib/session.server.ts";
import type { Route } from "./+types/contact-us";

export async function loader({ request, pattern }: Route.LoaderArgs) {
  await requireRouteAccess(request, pattern);
  return null;
}

/**
 * Saves the message as a contact entry (the API stores it, acknowledges it to the sender by e-mail
 * and forwards it to the support address). Any failure returns everything typed.
 */
export async function action({ request, pattern, context }: Route.ActionArgs) {
  const { user } = await requireRouteAccess(request, pattern);
  const formData = await readFormData(request);
  const values = readFields(formData, CONTACT_FIELDS);
  const parsed = contactForm.safeParse(values);
  if (!parsed.success) {
    return data<FormResult<ContactField>>(
      formError(values, communicationFieldErrors(parsed.error.issues, values)),
      { status: 400 },
    );
  }
  const { locale } = chooseLocale(request, { secure: isSecureRequest(request) });
  try {
    const saved = await saveContactEntry(
      request,
      user,
      { ...parsed.data, captcha: captchaOf(formData), source: "contact_form", locale },
      context,
    );
    if (saved === null) {
      return data<FormResult<ContactField>>(
        formError(values, {}, { key: "auth.errors.serviceUnavailable" }),
        {
          status: 503,
        },
      );
    }
  } catch (error) {
    if (!isApiError(error)) throw error;
    const failure = describeApiError(error);
    return data<FormResult<ContactField>>(formError(values, {}, failure.message), { status: failure.status });
  }
  return formSuccess<ContactField>({ key: "contact.sent" }, { ...values, message: "" });
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "contactUs");

const FORM_ID = "contact";

export default function ContactUsPage() {
  const { t } = useTranslation();
  const actionData = useActionData<typeof action>();
  const errors = errorsOf(actionData);
  const sent = successOf(actionData);
  const values = errors?.values ?? {};
  return (
    <div className="page-container py-10 tablet:py-14">
      <PageHeading page="contactUs" />
      <div className="mt-8 max-w-2xl">
        <p className="mb-6 text-ink">{t("contact.emergency")}</p>
        <ErrorSummary formId={FORM_ID} result={errors} order={CONTACT_FIELDS} />
        <StatusMessage
          message={sent?.message}
          title={sent ? t("contact.sentTitle") : undefined}
          details={sent ? t("contact.sentDetails") : undefined}
        />
        {/* A new form after each success: the next message starts empty. */}
        <Form key={sent ? "sent" : "form"} method="post" noValidate className="flex flex-col gap-5">
          <TextField
            formId={FORM_ID}
            name="name"
            label={t("contact.fields.name")}
            autoComplete="name"
            maxLength={CONTACT_NAME_MAX_LENGTH}
            defaultValue={values.name ?? sent?.values?.name}
            error={errors?.fieldErrors.name}
          />
          <EmailField
            formId={FORM_ID}
            defaultValue={values.email ?? sent?.values?.email}
            error={errors?.fieldErrors.email}
          />
          <SelectField
            formId={FORM_ID}
            name="topic"
            label={t("contact.fields.topic")}
            options={CONTACT_TOPICS.map((topic) => ({ value: topic, label: t(TOPIC_LABELS[topic]) }))}
            defaultValue={values.topic ?? ""}
            error={errors?.fieldErrors.topic}
          />
          <Textarea
            formId={FORM_ID}
            name="message"
            label={t("contact.fields.message")}
            hint={t("contact.hints.message")}
            maxLength={CONTACT_MESSAGE_MAX_LENGTH}
            defaultValue={values.message}
            error={errors?.fieldErrors.message}
          />
          <CaptchaField action={CAPTCHA_ACTIONS.contact} />
          <div>
            <SubmitButton pendingLabel={t("contact.sending")}>{t("contact.send")}</SubmitButton>
          </div>
        </Form>
      </div>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
