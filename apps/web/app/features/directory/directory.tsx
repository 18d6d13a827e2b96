import { CHOSEN_PROVIDER_MINUTES } from "@ambercare/contracts/consultation-limits";
import type { Provider, ProviderCard as SearchResult } from "@ambercare/contracts/provider";
import { offeredBy } from "@ambercare/contracts/visit-types";
import { type ReactNode, useEffect, useRef } from "react";
import { Link } from "react-router";
import { Image } from "#app/components/image.tsx";
import { useVisitorDateTime } from "#app/lib/date-time.ts";
import { useTranslation } from "#app/lib/i18n.tsx";

/**
 * The pieces of the provider directory: a provider's picture (photo, or initials when there is
 * none), rating, card in the results, and the pagination of the results.
 */

/** "AP" for Ana Petrova: what stands in for a photo (never a stock face). */
export function initialsOf(provider: Pick<Provider, "first_name" | "last_name">): string {
  return `${provider.first_name.charAt(0)}${provider.last_name.charAt(0)}`.toUpperCase();
}

/** Decorative beside the provider's name, which the page always shows next to it. */
export function ProviderAvatar({
  provider,
  size,
}: {
  provider: Pick<Provider, "first_name" | "last_name" | "photo">;
  size: "md" | "lg";
}) {
  const px = size === "lg" ? 112 : 64;
  if (provider.photo) {
    return (
      <Image
        src={provider.photo}
        alt=""
        width={px}
        height={px}
        fit="cover"
        className="shrink-0 overflow-hidden rounded-full"
      />
    );
  }
  return (
    <span
      aria-hidden="true"
      className={`flex shrink-0 items-center justify-center rounded-full border-2 border-primary bg-surface-muted font-bold text-primary-ink ${
        size === "lg" ? "size-28 text-4xl" : "size-16 text-xl"
      }`}
    >
      {initialsOf(provider)}
    </span>
  );
}

/** Stars for the eye (hidden from screen readers) and the same facts in words for everyone. */
export function ProviderRating({ rating }: { rating: Provider["rating"] }) {
  const { t, i18n } = useTranslation();
  if (rating.count === 0) {
    return <p className="text-ink-muted text-sm">{t("directory.card.noRatings")}</p>;
  }
  const filled = Math.round(rating.average);
  const average = new Intl.NumberFormat(i18n.language, {
    minimumFractionDigits: 1,
    maximumFractionDigits: 1,
  }).format(rating.average);
  return (
    <p className="flex flex-wrap items-center gap-x-2 text-sm text-ink">
      <span aria-hidden="true" className="text-base text-primary-ink tracking-wider">
        {"★".repeat(filled)}
        {"☆".repeat(5 - filled)}
      </span>
      <span>{t("directory.card.rating", { rating: average })}</span>
      <span className="text-ink-muted">({t("directory.card.ratings", { count: rating.count })})</span>
    </p>
  );
}

export function ConsultationTypes({ provider }: { provider: SearchResult }) {
  const { t } = useTranslation();
  const types = offeredBy(provider).map((type) => t(`directory.types.${type}`));
  return (
    <ul className="flex flex-wrap gap-2">
      {types.map((type) => (
        <li
          key={type}
          className="rounded-full border border-border bg-surface-muted px-3 py-0.5 text-ink text-sm"
        >
          {type}
        </li>
      ))}
    </ul>
  );
}

/**
 * Whether the provider can be seen today and when next: a provider without a clinician account
 * (ADR 059) says plainly that they take no visits yet, and nothing more.
 */
export function AvailableToday({ provider }: { provider: SearchResult }) {
  const { t } = useTranslation();
  const when = useVisitorDateTime("weekdayTime");
  if (!provider.taking_visits) {
    return (
      <p className="font-semibold text-ink text-sm" data-testid="not-taking-visits">
        {t("directory.card.notTakingVisits")}
      </p>
    );
  }
  return (
    <div className="text-sm">
      {provider.available_today ? (
        <>
          <p className="font-semibold text-ink">
            <span aria-hidden="true" className="mr-1 inline-block size-2.5 rounded-full bg-primary-ink" />
            {t("directory.card.availableToday")}
          </p>
          {provider.expected_wait_minutes !== null && (
            <p className="text-ink-muted">
              {t("directory.card.expectedWait", { minutes: provider.expected_wait_minutes })}
            </p>
          )}
        </>
      ) : (
        <p className="text-ink-muted">{t("directory.card.notAvailableToday")}</p>
      )}
      {provider.next_available !== null && (
        <p className="text-ink" data-testid="next-available">
          {t("directory.card.nextAvailable", { when: when(provider.next_available) })}
        </p>
      )}
    </div>
  );
}

/** A provider without a clinician account cannot be requested: the page says so and where to go instead. */
export function NotTakingVisitsNote({ provider }: { provider: Pick<Provider, "name"> }) {
  const { t } = useTranslation();
  return (
    <div className="flex flex-col gap-2 text-ink" data-testid="not-taking-visits-note">
      <p>{t("directory.provider.notTakingVisits", { name: provider.name })}</p>
      <p>
        <Link to="/find-a-doctor?available_today=true" className="link">
          {t("directory.provider.notOnDuty.availableDoctors")}
        </Link>
      </p>
    </div>
  );
}

/**
 * What happens after "Start a consultation" with a provider who is not on duty: the request is
 * theirs alone for its first minutes, then any clinician on duty licensed in the patient's state may
 * take it. `othersWait` is the shortest expected wait with another provider on duty (null: nobody
 * is on duty; "unknown": it could not be found out), so the patient knows when to expect a clinician.
 */
export function NotOnDutyNote({
  provider,
  othersWait,
}: {
  provider: Provider;
  othersWait: number | null | "unknown";
}) {
  const { t } = useTranslation();
  const values = { name: provider.name, chosen: CHOSEN_PROVIDER_MINUTES };
  return (
    <div className="flex flex-col gap-2 text-ink" data-testid="not-on-duty">
      <p>
        {othersWait === "unknown"
          ? t("directory.provider.notOnDuty.unknown", values)
          : othersWait === null
            ? t("directory.provider.notOnDuty.nobody", values)
            : t("directory.provider.notOnDuty.others", {
                ...values,
                minutes: Math.max(CHOSEN_PROVIDER_MINUTES, othersWait),
              })}
      </p>
      <p>
        <Link to="/find-a-doctor?available_today=true" className="link">
          {t("directory.provider.notOnDuty.availableDoctors")}
        </Link>
      </p>
    </div>
  );
}

/** One provider in the results: name (the link to the profile), rating and the facts to choose by. */
export function ProviderCard({ provider }: { provider: SearchResult }) {
  const { t } = useTranslation();
  const headingId = `provider-${provider.slug}`;
  return (
    <article
      aria-labelledby={headingId}
      className="flex h-full flex-col gap-3 rounded-lg border border-border bg-surface p-5"
    >
      <div className="flex items-start gap-4">
        <ProviderAvatar provider={provider} size="md" />
        <div className="min-w-0">
          <h3 id={headingId} className="font-semibold text-ink text-lg">
            <Link to={`/find-a-doctor/${provider.slug}`} className="link">
              {provider.name}, {provider.credentials}
            </Link>
          </h3>
          <ProviderRating rating={provider.rating} />
        </div>
      </div>
      <dl className="grid gap-x-3 gap-y-1 text-sm mobile-l:grid-cols-[auto_1fr]">
        <dt className="font-semibold text-ink">{t("directory.card.specializations")}</dt>
        <dd className="text-ink">{provider.specializations.map((s) => s.name).join(", ")}</dd>
        <dt className="font-semibold text-ink">{t("directory.card.licensedIn")}</dt>
        <dd className="break-words text-ink">{provider.states.join(", ")}</dd>
        <dt className="font-semibold text-ink">{t("directory.card.offers")}</dt>
        <dd>
          <ConsultationTypes provider={provider} />
        </dd>
      </dl>
      <AvailableToday provider={provider} />
    </article>
  );
}

/** Page numbers to offer: the first, the last, and the current one with its neighbours. */
export function pageWindow(page: number, pageCount: number): Array<number | "gap"> {
  const wanted = new Set([1, pageCount, page - 1, page, page + 1]);
  const pages = [...wanted].filter((p) => p >= 1 && p <= pageCount).sort((a, b) => a - b);
  const out: Array<number | "gap"> = [];
  for (const [i, p] of pages.entries()) {
    const before = pages[i - 1];
    if (before !== undefined && p - before > 1) out.push("gap");
    out.push(p);
  }
  return out;
}

/** The same search, on another page (page 1 carries no `page` parameter). */
export function pageHref(search: string, page: number): string {
  const params = new URLSearchParams(search);
  if (page <= 1) params.delete("page");
  else params.set("page", String(page));
  const query = params.toString();
  return query ? `/find-a-doctor?${query}` : "/find-a-doctor";
}

const PAGE_LINK =
  "inline-flex min-h-11 min-w-11 items-center justify-center rounded-md border-2 px-3 no-underline";

export function Pagination({ page, pageCount, search }: { page: number; pageCount: number; search: string }) {
  const { t } = useTranslation();
  if (pageCount <= 1) return null;
  return (
    <nav aria-label={t("directory.pagination.label")} className="mt-8">
      <ul className="flex flex-wrap items-center gap-2">
        {page > 1 ? (
          <li>
            <Link
              to={pageHref(search, page - 1)}
              rel="prev"
              aria-label={t("directory.pagination.previousLabel")}
              className={`${PAGE_LINK} border-border text-ink hover:bg-surface-muted`}
            >
              {t("directory.pagination.previous")}
            </Link>
          </li>
        ) : null}
        {pageWindow(page, pageCount).map((item, index) =>
          item === "gap" ? (
            // biome-ignore lint/suspicious/noArrayIndexKey: a gap has no identity but its place
            <li key={`gap-${index}`} className="px-1 text-ink-muted">
              …
            </li>
          ) : (
            <li key={item}>
              <Link
                to={pageHref(search, item)}
                aria-label={t("directory.pagination.page", { page: item })}
                aria-current={item === page ? "page" : undefined}
                className={`${PAGE_LINK} ${
                  item === page
                    ? "border-primary bg-primary font-bold text-on-primary"
                    : "border-border text-ink hover:bg-surface-muted"
                }`}
              >
                {item}
              </Link>
            </li>
          ),
        )}
        {page < pageCount ? (
          <li>
            <Link
              to={pageHref(search, page + 1)}
              rel="next"
              aria-label={t("directory.pagination.nextLabel")}
              className={`${PAGE_LINK} border-border text-ink hover:bg-surface-muted`}
            >
              {t("directory.pagination.next")}
            </Link>
          </li>
        ) : null}
      </ul>
    </nav>
  );
}

/** The search fields that narrow the results (the sort order only reorders them). */
const FILTER_FIELDS = ["q", "specialization", "condition", "state", "type", "available_today"] as const;

export function activeFilterCount(values: Partial<Record<string, string>>): number {
  return FILTER_FIELDS.filter((field) => (values[field] ?? "") !== "").length;
}

/** Wide screens show the filters beside the results, open; phones fold them above the results. */
const WIDE_SCREEN = "(min-width: 1024px)";

/**
 * The directory's filters as a disclosure: on a phone they fold, so the first result sits near the
 * top, and the summary tells how many filters are active. A native <details>, so it opens without
 * JavaScript; from 1024 px on, CSS keeps it open (app.css) and the page marks it open once hydrated.
 */
export function FiltersDisclosure({
  headingId,
  activeCount,
  children,
}: {
  headingId: string;
  activeCount: number;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const disclosure = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    if (disclosure.current && window.matchMedia(WIDE_SCREEN).matches) disclosure.current.open = true;
  }, []);
  return (
    <details ref={disclosure} className="directory-filters group">
      <summary className="flex min-h-11 cursor-pointer list-none items-center justify-between gap-3 [&::-webkit-details-marker]:hidden">
        <h2 id={headingId} className="font-bold text-ink text-xl">
          {t("directory.filtersHeading")}
        </h2>
        <span className="flex items-center gap-2 text-ink">
          {activeCount > 0 ? (
            <span className="rounded-full bg-ink px-2.5 py-0.5 font-semibold text-sm text-surface">
              {t("directory.activeFilters", { count: activeCount })}
            </span>
          ) : null}
          <svg
            aria-hidden="true"
            focusable="false"
            viewBox="0 0 24 24"
            className="directory-filters-chevron size-5 group-open:rotate-180"
          >
            <path d="m6 9 6 6 6-6" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
          </svg>
        </span>
      </summary>
      {children}
    </details>
  );
}
