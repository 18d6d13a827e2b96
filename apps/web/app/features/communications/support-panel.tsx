import ownStrings from "virtual:ambercare/own-strings";
import { CAPTCHA_ACTIONS, CONTACT_MESSAGE_MAX_LENGTH } from "@ambercare/contracts/communications-constants";
import { useEffect, useId, useRef, useState } from "react";
import { Link, useFetcher } from "react-router";
import { EmailField, ErrorSummary, StatusMessage, Textarea } from "#app/components/forms.tsx";
import { CaptchaField } from "#app/features/communications/captcha-field.tsx";
import { SUPPORT_FIELDS, type SupportField } from "#app/features/communications/communication-fields.ts";
import { errorsOf, type FormResult, successOf } from "#app/lib/forms.ts";
import { useTranslation, withOwnStrings } from "#app/lib/i18n.tsx";

export type SupportPanelProps = { loggedIn: boolean; onClose: () => void };

const FORM_ID = "support";

// Its strings (the form's, the captcha's) come with this chunk, on the first hover (ADR 042).
export const SupportPanel = withOwnStrings(ownStrings, SupportDialog);

/**
 * The support widget's panel (loaded on demand by support-widget.tsx): a non-modal dialog in the
 * corner with a message, the e-mail for the reply (a logged-in patient's own address is used), and
 * the captcha. Focus starts in the message; Esc and the Close button close it.
 */
function SupportDialog({ loggedIn, onClose }: SupportPanelProps) {
  const { t } = useTranslation();
  const fetcher = useFetcher<FormResult<SupportField>>({ key: "support-widget" });
  const titleId = useId();
  const dialog = useRef<HTMLDivElement>(null);
  const [round, setRound] = useState(0);
  const errors = errorsOf(fetcher.data);
  const sent = successOf(fetcher.data);
  const busy = fetcher.state !== "idle";

  useEffect(() => {
    const first =
      dialog.current?.querySelector<HTMLElement>("textarea") ?? dialog.current?.querySelector("button");
    first?.focus();
  }, []);

  return (
    <div
      ref={dialog}
      role="dialog"
      aria-modal="false"
      aria-labelledby={titleId}
      className="fixed right-4 bottom-4 z-30 max-h-[calc(100dvh-2rem)] w-[min(24rem,calc(100vw-2rem))] overflow-y-auto rounded-lg border border-border bg-surface p-4 shadow-xl"
      onKeyDown={(event) => {
        if (event.key === "Escape") {
          event.stopPropagation();
          onClose();
        }
      }}
    >
      <div className="mb-3 flex items-start justify-between gap-3">
        <div>
          <h2 id={titleId} className="font-bold text-ink text-lg">
            {t("supportWidget.title")}
          </h2>
          <p className="text-ink-muted text-sm">{t("supportWidget.lead")}</p>
        </div>
        <button
          type="button"
          className="button-secondary shrink-0 px-3 text-sm"
          onClick={onClose}
          aria-label={t("supportWidget.closeLabel")}
        >
          {t("supportWidget.close")}
        </button>
      </div>
      {sent && !busy && round === 0 ? (
        <div>
          <StatusMessage message={sent.message} title={t("supportWidget.sentTitle")} />
          {loggedIn ? (
            <p className="mb-4 text-ink">
              <Link to="/my-profile/messages" className="link" onClick={onClose}>
                {t("supportWidget.seeMessages")}
              </Link>
            </p>
          ) : null}
          <button type="button" className="button-secondary" onClick={() => setRound((n) => n + 1)}>
            {t("supportWidget.another")}
          </button>
        </div>
      ) : (
        <>
          <ErrorSummary formId={FORM_ID} result={errors} order={SUPPORT_FIELDS} />
          <fetcher.Form
            key={round}
            method="post"
            action="/support-message"
            noValidate
            className="flex flex-col gap-4"
            onSubmit={() => {
              if (round > 0) setRound(0);
            }}
          >
            <Textarea
              formId={FORM_ID}
              name="message"
              label={t("supportWidget.message")}
              maxLength={CONTACT_MESSAGE_MAX_LENGTH}
              defaultValue={errors?.values.message}
              error={errors?.fieldErrors.message}
            />
            {loggedIn ? (
              <p className="text-ink-muted text-sm">{t("supportWidget.replyToAccount")}</p>
            ) : (
              <EmailField
                formId={FORM_ID}
                hint={t("supportWidget.emailHint")}
                defaultValue={errors?.values.email}
                error={errors?.fieldErrors.email}
              />
            )}
            <CaptchaField action={CAPTCHA_ACTIONS.contact} />
            <div>
              <button type="submit" className="button-primary w-full" aria-disabled={busy || undefined}>
                {busy ? t("supportWidget.sending") : t("supportWidget.send")}
              </button>
            </div>
          </fetcher.Form>
        </>
      )}
    </div>
  );
}
