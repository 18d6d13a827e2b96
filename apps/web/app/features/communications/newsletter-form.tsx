import { EMAIL_MAX_LENGTH } from "@ambercare/contracts/account-limits";
import { CAPTCHA_ACTIONS } from "@ambercare/contracts/communications-constants";
import { type ReactNode, useEffect, useId, useRef } from "react";
import { Form, useActionData, useFetcher, useNavigation, useSearchParams } from "react-router";
import { translateMessage } from "#app/components/hydrated.ts";
import { CaptchaField } from "#app/features/communications/captcha-field.tsx";
import type { NotifyMeResult } from "#app/features/communications/notify-me.server.ts";
import { useTranslation } from "#app/lib/i18n.tsx";

/**
 * The e-mail list sign-up (double opt-in): the soon pages' "notify me" form posts to the page's own
 * action; the footer's posts to /newsletter through a fetcher, so the visitor stays where they are.
 * Without JavaScript the footer form is a plain POST that comes back to the same page with the
 * outcome in `?newsletter=` (routes/newsletter.ts). The answer is announced to screen readers.
 */

/** What routes/newsletter.ts puts in `?newsletter=` after a POST without JavaScript. */
export const NEWSLETTER_OUTCOMES = ["sent", "invalid", "captcha", "error"] as const;
export type NewsletterOutcome = (typeof NEWSLETTER_OUTCOMES)[number];

function outcomeOf(result: NotifyMeResult | undefined): NewsletterOutcome | undefined {
  if (!result) return undefined;
  if (result.status === "error") return result.captcha ? "captcha" : "error";
  return result.status;
}

type Props = { variant: "notify" | "footer" };

export function NewsletterForm({ variant }: Props) {
  return variant === "footer" ? <FooterNewsletter /> : <NotifyMe />;
}

function NotifyMe() {
  const result = useActionData() as NotifyMeResult | undefined;
  const navigation = useNavigation();
  return (
    <NewsletterFields
      variant="notify"
      result={result}
      busy={navigation.state === "submitting"}
      render={(children) => (
        <Form method="post" preventScrollReset className="mt-4 flex flex-col gap-3">
          {children}
        </Form>
      )}
    />
  );
}

function FooterNewsletter() {
  const fetcher = useFetcher<NotifyMeResult>({ key: "newsletter" });
  const [params] = useSearchParams();
  const fromRedirect = params.get("newsletter");
  // After a POST without JavaScript, the outcome comes back in the URL.
  const fallback: NotifyMeResult | undefined =
    fetcher.data === undefined && fromRedirect
      ? fromRedirect === "sent"
        ? { status: "sent" }
        : fromRedirect === "invalid"
          ? { status: "invalid", email: "" }
          : {
              status: "error",
              email: "",
              message: { key: fromRedirect === "captcha" ? "captcha.errors.missing" : "lists.errors.failed" },
              ...(fromRedirect === "captcha" ? { captcha: true as const } : {}),
            }
      : undefined;
  return (
    <NewsletterFields
      variant="footer"
      result={fetcher.data ?? fallback}
      busy={fetcher.state === "submitting"}
      render={(children) => (
        <fetcher.Form method="post" action="/newsletter" className="mt-3 flex flex-col gap-3">
          {children}
        </fetcher.Form>
      )}
    />
  );
}

function NewsletterFields({
  variant,
  result,
  busy,
  render,
}: Props & {
  result: NotifyMeResult | undefined;
  busy: boolean;
  render: (children: ReactNode) => ReactNode;
}) {
  const { t } = useTranslation();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const outcome = outcomeOf(result);
  const invalid = outcome === "invalid";
  const failed = result?.status === "error" ? result : undefined;
  const sent = outcome === "sent";

  useEffect(() => {
    if (invalid) input.current?.focus();
  }, [invalid]);

  const headingId = `${id}-heading`;
  const errorId = `${id}-error`;
  const typed = result && result.status !== "sent" ? result.email : undefined;
  const heading =
    variant === "footer" ? (
      <h2 id={headingId} className="font-semibold text-ink">
        {t("lists.footer.heading")}
      </h2>
    ) : (
      <h2 id={headingId} className="font-semibold text-ink text-xl">
        {t("lists.notify.heading")}
      </h2>
    );

  return (
    <section
      aria-labelledby={headingId}
      id={variant === "footer" ? "newsletter" : undefined}
      className={
        variant === "footer"
          ? "flex flex-col"
          : "mt-10 w-full rounded-lg border border-border bg-surface-muted p-5 text-left"
      }
    >
      {heading}
      <p className={variant === "footer" ? "mt-2 text-ink-muted text-sm" : "mt-2 text-ink-muted"}>
        {t(variant === "footer" ? "lists.footer.text" : "lists.notify.text")}
      </p>
      {render(
        <>
          <label htmlFor={`${id}-email`} className="font-semibold text-ink">
            {t("lists.emailLabel")}
          </label>
          {invalid || failed ? (
            <p id={errorId} className="font-semibold text-danger">
              {failed ? translateMessage(t, failed.message) : t("lists.invalid")}
            </p>
          ) : null}
          <div className="flex flex-col gap-3 mobile-l:flex-row">
            <input
              // A new input after a success: the field starts empty again.
              key={sent ? "sent" : "typing"}
              ref={input}
              id={`${id}-email`}
              name="email"
              type="email"
              autoComplete="email"
              required
              maxLength={EMAIL_MAX_LENGTH}
              defaultValue={typed}
              aria-invalid={invalid || undefined}
              aria-describedby={invalid || failed ? errorId : undefined}
              className="min-h-11 w-full min-w-0 rounded-md border-2 border-ink-muted bg-surface px-3 py-2 text-base text-ink aria-[invalid=true]:border-danger"
            />
            <button type="submit" className="button-primary shrink-0" aria-disabled={busy || undefined}>
              {busy ? t("lists.submitting") : t("lists.submit")}
            </button>
          </div>
          <CaptchaField action={CAPTCHA_ACTIONS.subscribe} start="interaction" />
        </>,
      )}
      <p role="status" className="mt-3 text-ink">
        {sent ? t("lists.sent") : ""}
      </p>
    </section>
  );
}
