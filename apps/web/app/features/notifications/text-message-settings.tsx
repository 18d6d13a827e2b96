import type { Locale } from "@ambercare/contracts/locales";
import type { TextMessageStatus } from "@ambercare/contracts/notifications";
import type { ReactNode } from "react";
import { Form, Link } from "react-router";
import { CheckboxField, StatusMessage, SubmitButton, TextField } from "#app/components/forms.tsx";
import type { NotificationsAction, TextForm } from "#app/features/notifications/notifications.server.ts";
import { useDateTime } from "#app/lib/date-time.ts";
import type { FormMessage } from "#app/lib/forms.ts";
import { useTranslation } from "#app/lib/i18n.tsx";

const FORM_ID = "texts";

/** A plain POST form of the section (works without JavaScript), named by its `intent`. */
function SectionForm({
  intent,
  submit,
  link,
  children,
}: {
  intent: TextForm;
  submit: string;
  /** A secondary action, shown as a link. */
  link?: boolean;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Form method="post" className="flex flex-col gap-3">
      <input type="hidden" name="intent" value={intent} />
      {children}
      <div>
        <SubmitButton
          intent={intent}
          pendingLabel={t("notifications.saving")}
          {...(link ? { className: "link" } : {})}
        >
          {submit}
        </SubmitButton>
      </div>
    </Form>
  );
}

/**
 * The phone of the patient's profile, offered for texts (ADR 064, "The profile's phone"): a link
 * fills the number field with it (`?phone=profile`, a plain GET, so without JavaScript too); nothing
 * is texted, confirmed or consented to until the patient submits the form and agrees.
 */
export type ProfilePhoneOffer = { phone: string; prefill: boolean };

/** The query that fills the number field with the profile's phone. */
export const PROFILE_PHONE_QUERY = "phone=profile";

/** The offer of the profile's phone, from the account's phone and the page's address. */
export function profilePhoneOffer(phone: string | null | undefined, url: URL): ProfilePhoneOffer | null {
  const value = phone?.trim();
  if (!value) return null;
  return { phone: value, prefill: url.searchParams.get("phone") === "profile" };
}

/**
 * The page's text-message section: none when the clinic sends no texts (the API answered
 * TEXT_MESSAGES_OFF, `status` null), but the outcome of a form posted from it (a number removed)
 * is still announced.
 */
export function TextMessagesSection({
  status,
  locale,
  result,
  profilePhone = null,
}: {
  status: TextMessageStatus | null;
  locale: Locale;
  result: NotificationsAction | undefined;
  profilePhone?: ProfilePhoneOffer | null;
}) {
  if (status)
    return (
      <TextMessageSettings status={status} locale={locale} result={result} profilePhone={profilePhone} />
    );
  return result?.form ? <StatusMessage message={result.message} /> : null;
}

/**
 * My profile › Notifications › Text messages (ADR 064): the mobile number (a code texted to it
 * confirms it), then the express consent to reminder texts, with the wording the API will record
 * exactly as shown here, and the opt-out. Every step is a plain form; a refusal is shown beside its
 * field and announced.
 */
export function TextMessageSettings({
  status,
  locale,
  result,
  profilePhone = null,
}: {
  status: TextMessageStatus;
  locale: Locale;
  result: NotificationsAction | undefined;
  profilePhone?: ProfilePhoneOffer | null;
}) {
  const { t } = useTranslation();
  const failed = result?.status === "error" ? result : undefined;
  const errorOf = (form: TextForm) => (failed?.form === form ? failed.message : undefined);
  return (
    <section aria-labelledby="text-messages" className="mt-8 flex max-w-2xl flex-col gap-4">
      <h2 id="text-messages" className="font-bold text-2xl text-ink">
        {t("notifications.texts.heading")}
      </h2>
      <StatusMessage message={result?.form ? result.message : undefined} />
      {!status.sending ? (
        // Texts are off, but a number saved before stays its owner's to remove.
        <>
          <p className="text-ink">{t("notifications.texts.offSaved", { phone: status.phone ?? "" })}</p>
          <SectionForm intent="text-remove" submit={t("notifications.texts.remove")} />
        </>
      ) : (
        <TextMessageSteps status={status} locale={locale} errorOf={errorOf} profilePhone={profilePhone} />
      )}
    </section>
  );
}

/** The section's steps while the clinic sends texts: number, code, consent, opt-out, removal. */
function TextMessageSteps({
  status,
  locale,
  errorOf,
  profilePhone,
}: {
  status: TextMessageStatus;
  locale: Locale;
  errorOf: (form: TextForm) => FormMessage | undefined;
  profilePhone: ProfilePhoneOffer | null;
}) {
  const { t } = useTranslation();
  const when = useDateTime("dateTime");
  // Only a patient without a texting number is offered the profile's phone, and only to fill the field.
  const offer = status.phone === null ? profilePhone : null;
  const numberForm = (
    <SectionForm intent="text-number" submit={t("notifications.texts.sendCode")}>
      <TextField
        formId={FORM_ID}
        name="phone"
        type="tel"
        autoComplete="tel"
        inputMode="tel"
        maxLength={32}
        label={t("notifications.texts.phoneLabel")}
        hint={t("notifications.texts.phoneHint")}
        error={errorOf("text-number")}
        defaultValue={status.phone ?? (offer?.prefill ? offer.phone : "")}
      />
      {offer?.prefill ? (
        <p className="text-ink-muted text-sm">{t("notifications.texts.profilePhoneFilled")}</p>
      ) : offer ? (
        <p>
          <Link to={`?${PROFILE_PHONE_QUERY}#text-messages`} className="link" preventScrollReset>
            {t("notifications.texts.useProfilePhone", { phone: offer.phone })}
          </Link>
        </p>
      ) : null}
    </SectionForm>
  );
  return (
    <>
      <p className="text-ink">{t("notifications.texts.intro")}</p>
      {status.phone === null ? (
        numberForm
      ) : !status.confirmed ? (
        <>
          {status.code ? (
            <p className="text-ink">{t("notifications.texts.codeSent", { phone: status.phone })}</p>
          ) : null}
          <SectionForm intent="text-confirm" submit={t("notifications.texts.confirm")}>
            <TextField
              formId={FORM_ID}
              name="code"
              inputMode="numeric"
              autoComplete="one-time-code"
              pattern="[0-9]{6}"
              maxLength={6}
              label={t("notifications.texts.codeLabel")}
              error={errorOf("text-confirm") ?? errorOf("text-resend")}
            />
          </SectionForm>
          <SectionForm intent="text-resend" submit={t("notifications.texts.resend")} link />
        </>
      ) : (
        <>
          <p className="text-ink">{t("notifications.texts.confirmed", { phone: status.phone })}</p>
          {status.receives_texts ? (
            <>
              <p className="font-semibold text-ink">{t("notifications.texts.on", { phone: status.phone })}</p>
              {status.consent ? (
                <p className="text-ink-muted text-sm">
                  {t("notifications.texts.consentGiven", {
                    date: when(status.consent.given_at),
                    wording: status.consent.wording,
                  })}
                </p>
              ) : null}
              <SectionForm intent="text-opt-out" submit={t("notifications.texts.optOut")} />
            </>
          ) : (
            <>
              {status.opted_out ? (
                <p className="text-ink">
                  {status.opted_out.via === "reply"
                    ? t("notifications.texts.optedOutReply")
                    : t("notifications.texts.optedOutProfile")}
                </p>
              ) : null}
              <SectionForm intent="text-consent" submit={t("notifications.texts.consentSubmit")}>
                <input type="hidden" name="locale" value={locale} />
                <input type="hidden" name="wording" value={status.consent_wording} />
                <fieldset className="flex flex-col gap-2" aria-describedby="text-consent-wording">
                  <legend className="font-semibold text-ink">{t("notifications.texts.consentLegend")}</legend>
                  <p id="text-consent-wording" className="rounded-md border border-border p-3 text-ink">
                    {status.consent_wording}
                  </p>
                  <CheckboxField
                    formId={FORM_ID}
                    name="agree"
                    label={t("notifications.texts.consentBox")}
                    error={errorOf("text-consent")}
                  />
                </fieldset>
              </SectionForm>
            </>
          )}
        </>
      )}
      {status.phone !== null ? (
        <>
          <details>
            <summary className="link cursor-pointer">{t("notifications.texts.change")}</summary>
            <div className="mt-3">{numberForm}</div>
          </details>
          <SectionForm intent="text-remove" submit={t("notifications.texts.remove")} link />
        </>
      ) : null}
    </>
  );
}
