import type { ReactNode } from "react";
import { Link } from "react-router";
import { AlreadyLoggedIn } from "#app/components/page.tsx";
import { useTranslation } from "#app/lib/i18n.tsx";
import type { PageKey } from "#app/lib/meta.ts";

/** The frame of the account pages (log in, sign up, passwords, almost there): one narrow column. */
export function AuthPage({
  page,
  lead,
  wide = false,
  children,
}: {
  page: PageKey;
  lead?: string;
  /** The profile completion form needs two columns on wider screens. */
  wide?: boolean;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <div className="page-container py-8 tablet:py-14">
      <div className={`mx-auto ${wide ? "max-w-3xl" : "max-w-md"}`}>
        <h1 className="font-bold text-3xl text-ink tablet:text-4xl">{t(`pages.${page}.title`)}</h1>
        {lead ? <p className="mt-3 text-ink-muted text-lg">{lead}</p> : null}
        <div className="mt-8">{children}</div>
      </div>
    </div>
  );
}

/** A line of secondary links under a form ("Forgot your password?", "Create an account"). */
export function FormFooter({ children }: { children: ReactNode }) {
  return <div className="mt-8 flex flex-col gap-2 border-border border-t pt-6 text-ink">{children}</div>;
}

/** A dead end announced at once (an expired login, a used link), with the one way on. */
export function AlertWithLink({
  title,
  message,
  to,
  label,
}: {
  title?: string;
  message: string;
  to: string;
  label: string;
}) {
  return (
    <div role="alert" className="rounded-md border-4 border-danger bg-surface p-4">
      {title ? <h2 className="mb-2 font-bold text-ink text-lg">{title}</h2> : null}
      <p className="text-ink">{message}</p>
      <Link to={to} className="button-primary mt-4">
        {label}
      </Link>
    </div>
  );
}

/**
 * A page that an e-mailed link opens (sign-up confirmation, password reset, lost device): the
 * "already logged in" notice, the dead-link alert when the token is missing or was refused, or the
 * page's form.
 */
export function EmailedLinkPage({
  page,
  alreadyLoggedIn,
  linkRefused,
  deadLink,
  children,
}: {
  page: PageKey;
  alreadyLoggedIn: boolean;
  /** No plausible token in the URL, or the API refused it. */
  linkRefused: boolean;
  deadLink: { title?: string; message: string; to: string; label: string };
  children: ReactNode;
}) {
  if (alreadyLoggedIn) return <AlreadyLoggedIn />;
  if (linkRefused) {
    return (
      <AuthPage page={page}>
        <AlertWithLink {...deadLink} />
      </AuthPage>
    );
  }
  return children;
}
