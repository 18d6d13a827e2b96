import { useEffect, useId, useRef } from "react";
import { Form, Link, useActionData, useNavigation } from "react-router";
import { useTranslation } from "#app/lib/i18n.tsx";
import type { PageKey } from "#app/lib/meta.ts";
import type { NotifyMeResult } from "#app/lib/notify-me.server.ts";

/**
 * "Notify me": an e-mail field and a button posting to the page's own action (notify-me.server.ts).
 * Updates by e-mail are not open yet, and the answer says so rather than pretending to sign anyone
 * up. Works without JavaScript; the answer is announced to screen readers.
 */
function NotifyMeForm() {
  const { t } = useTranslation();
  const result = useActionData() as NotifyMeResult | undefined;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const invalid = result?.status === "invalid";

  useEffect(() => {
    if (invalid) input.current?.focus();
  }, [invalid]);

  return (
    <section
      aria-labelledby={`${id}-heading`}
      className="mt-10 w-full rounded-lg border border-border bg-surface-muted p-5 text-left"
    >
      <h2 id={`${id}-heading`} className="font-semibold text-ink text-xl">
        {t("soon.notify.heading")}
      </h2>
      <p className="mt-2 text-ink-muted">{t("soon.notify.text")}</p>
      <Form method="post" preventScrollReset className="mt-4 flex flex-col gap-3">
        <label htmlFor={`${id}-email`} className="font-semibold text-ink">
          {t("soon.notify.emailLabel")}
        </label>
        {invalid ? (
          <p id={`${id}-error`} className="font-semibold text-danger">
            {t("soon.notify.invalid")}
          </p>
        ) : null}
        <div className="flex flex-col gap-3 mobile-l:flex-row">
          <input
            ref={input}
            id={`${id}-email`}
            name="email"
            type="email"
            autoComplete="email"
            required
            maxLength={254}
            aria-invalid={invalid || undefined}
            aria-describedby={invalid ? `${id}-error` : undefined}
            className="min-h-11 w-full rounded-md border-2 border-ink-muted bg-surface px-3 py-2 text-base text-ink aria-[invalid=true]:border-danger"
          />
          <button type="submit" className="button-primary shrink-0" disabled={busy}>
            {t("soon.notify.submit")}
          </button>
        </div>
      </Form>
      <p role="status" className="mt-3 text-ink">
        {result?.status === "notOpenYet" ? t("soon.notify.notOpenYet") : ""}
      </p>
    </section>
  );
}

/** The centred content of a "soon" page. */
export function ComingSoon({ page }: { page: PageKey }) {
  const { t } = useTranslation();
  return (
    <div className="mx-auto flex max-w-xl flex-col items-center px-4 py-16 text-center">
      <p className="rounded-full bg-secondary px-4 py-1 font-semibold text-on-secondary text-sm">
        {t("soon.badge")}
      </p>
      <h1 className="mt-6 font-bold text-3xl text-ink tablet:text-4xl">{t(`pages.${page}.title`)}</h1>
      <p className="mt-4 text-ink-muted text-lg">{t(`pages.${page}.description`)}</p>
      <p className="mt-2 text-ink-muted">{t("soon.message")}</p>
      <NotifyMeForm />
      <Link to="/" className="button-secondary mt-8">
        {t("common.backHome")}
      </Link>
    </div>
  );
}
