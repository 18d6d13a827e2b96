import { useEffect, useState } from "react";
import { isRouteErrorResponse, Link, useRouteError } from "react-router";
import { useTranslation } from "#app/lib/i18n.tsx";
import { errorKind, retryAfterOf } from "#app/lib/meta.ts";

/**
 * The one error page of the site, used by the root and by every route:
 * 404 → 'Page Not Found', 'Sorry, the page you are looking for could not be found.' and a
 * 'Go back home' link; anything else → 'Internal Server Error', 'This page is temporarily
 * unavailable.' and no link; a form the site cannot read and a service down for a while have their own
 * words; a visitor over their request budget (429) is told how long to wait, and the page tries again
 * by itself when the wait is over. It shows the status code and never a stack trace in production.
 */
export function GeneralErrorBoundary() {
  const error = useRouteError();
  return <ErrorPage error={error} />;
}

export function errorStatus(error: unknown): number {
  return isRouteErrorResponse(error) ? error.status : 500;
}

export function ErrorPage({ error }: { error: unknown }) {
  const { t } = useTranslation();
  const kind = errorKind(error);
  const status = errorStatus(error);
  return (
    <section
      aria-labelledby="error-title"
      className="mx-auto flex max-w-xl flex-col items-center px-4 py-16 text-center"
    >
      <p className="font-bold text-6xl text-primary-ink" data-testid="error-status">
        {status}
      </p>
      <h1 id="error-title" className="mt-4 font-bold text-2xl text-ink tablet:text-3xl">
        {t(`errors.${kind}.title`)}
      </h1>
      {kind === "tooManyRequests" ? (
        <RetryAfterWait seconds={retryAfterOf(error)} />
      ) : (
        <p className="mt-3 text-ink-muted text-lg">{t(`errors.${kind}.message`)}</p>
      )}
      {kind === "notFound" ? (
        <Link to="/" className="button-primary mt-8">
          {t("errors.notFound.homeLink")}
        </Link>
      ) : null}
      {import.meta.env.DEV && error instanceof Error ? (
        <pre className="mt-8 max-w-full overflow-auto rounded bg-surface-muted p-4 text-left text-sm">
          {error.stack}
        </pre>
      ) : null}
    </section>
  );
}

/**
 * "Please wait N seconds": the page loads again by itself when the wait is over (a refresh in the
 * page's head without JavaScript, a reload with it), and a button tries at once.
 */
function RetryAfterWait({ seconds }: { seconds: number }) {
  const { t } = useTranslation();
  const [left, setLeft] = useState(seconds);
  useEffect(() => {
    const startedAt = Date.now();
    const timer = window.setInterval(() => {
      const remaining = Math.max(0, seconds - Math.floor((Date.now() - startedAt) / 1000));
      setLeft(remaining);
      if (remaining === 0) {
        window.clearInterval(timer);
        window.location.reload();
      }
    }, 1000);
    return () => window.clearInterval(timer);
  }, [seconds]);
  return (
    <>
      <meta httpEquiv="refresh" content={String(seconds)} />
      <p className="mt-3 text-ink-muted text-lg" role="status" data-testid="retry-after">
        {t("errors.tooManyRequests.message", { seconds: String(left) })}
      </p>
      <p className="mt-2 text-ink-muted">{t("errors.tooManyRequests.retrying")}</p>
      <button type="button" className="button-primary mt-8" onClick={() => window.location.reload()}>
        {t("errors.tooManyRequests.retryNow")}
      </button>
    </>
  );
}
