import type { ConsultationType } from "@ambercare/contracts/provider-limits";
import type { Slot } from "@ambercare/contracts/scheduling";
import { data, Form, Link, redirect, useActionData, useLoaderData } from "react-router";
import { ChoiceGroup } from "#app/components/choice-group.tsx";
import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { translateMessage } from "#app/components/forms.tsx";
import { PageHeading } from "#app/components/page.tsx";
import { consultationApi } from "#app/features/consultations/consultations.server.ts";
import { loadChosenProvider, profileState } from "#app/features/consultations/visit-choice.server.ts";
import {
  chosenType,
  offeredTypes,
  providerMismatch,
  stateCode,
} from "#app/features/consultations/visit-choice.ts";
import { VisitStateField } from "#app/features/consultations/visit-state-field.tsx";
import { bookingApi, freeSlots, TIME_GONE_CODES } from "#app/features/scheduling/booking.server.ts";
import { SlotPicker } from "#app/features/scheduling/slot-picker.tsx";
import { isApiError } from "#app/lib/api-client.server.ts";
import { describeApiError } from "#app/lib/api-errors.ts";
import { useTimeZone } from "#app/lib/date-time.ts";
import { readFormData } from "#app/lib/form-body.server.ts";
import type { FormMessage } from "#app/lib/forms.ts";
import { useTranslation } from "#app/lib/i18n.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { orNotFound } from "#app/lib/not-found.server.ts";
import { requireRouteUser, type SessionUser } from "#app/lib/session.server.ts";
import { useUsStateNames } from "#app/lib/us-state-names.ts";
import type { Route } from "./+types/book";

/**
 * Booking a time (ADR 059, 063): a provider's free times for the coming days in the patient's zone,
 * for one visit type and the state the patient will be in. Choosing one holds it for 10 minutes and
 * leads to the intake form with the hold; with `reschedule=<visit>` the held time replaces the
 * visit's (the old time stays booked until the new one is).
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Choice = {
  slug: string;
  providerName: string | null;
  offers: readonly ConsultationType[];
  type: ConsultationType;
  state: string | null;
  reschedule: string | null;
  mismatch: "type" | "state" | null;
};

/** What the query and, when rescheduling, the visit itself say is being booked. */
async function readChoice(
  request: Request,
  user: SessionUser,
  context: { clientIp?: string } | undefined,
): Promise<Choice | null> {
  const url = new URL(request.url);
  const asked = url.searchParams.get("reschedule");
  const reschedule = asked && UUID.test(asked) ? asked : null;
  // A visit is moved within its own type and state, with its own provider by default.
  const visit = reschedule
    ? await orNotFound(() => consultationApi(request, user, context).get(reschedule))
    : null;
  const slug = url.searchParams.get("provider") ?? visit?.provider?.slug ?? null;
  const found = await loadChosenProvider(slug, request, context);
  if (!slug || found === null) return null;
  const provider = found === "unavailable" ? null : found;
  const offers = visit ? [visit.type] : offeredTypes(provider);
  const type = visit ? visit.type : chosenType(url.searchParams.get("type"), offers);
  const state = visit
    ? visit.state
    : (stateCode(url.searchParams.get("state")) ?? (await profileState(request, user)));
  return {
    slug,
    providerName: provider?.name ?? null,
    offers,
    type,
    state,
    reschedule,
    mismatch: providerMismatch(provider, type, state),
  };
}

export async function loader({ request, pattern, context }: Route.LoaderArgs) {
  const { user } = await requireRouteUser(request, pattern);
  const choice = await readChoice(request, user, context);
  if (!choice) throw redirect("/find-a-doctor");
  const slots =
    choice.state && choice.mismatch === null
      ? await freeSlots(choice.slug, { type: choice.type, state: choice.state }, context)
      : [];
  return { ...choice, slots };
}

type BookAction = { message: FormMessage; taken: string | null; nearest: Slot[] };

export async function action({ request, pattern, context }: Route.ActionArgs) {
  const { user } = await requireRouteUser(request, pattern);
  const form = await readFormData(request);
  const start = form.get("start");
  const choice = await readChoice(request, user, context);
  if (!choice) throw redirect("/find-a-doctor");
  if (typeof start !== "string" || Number.isNaN(Date.parse(start)) || !choice.state) {
    return data<BookAction>(
      { message: { key: "booking.errors.chooseTime" }, taken: null, nearest: [] },
      { status: 400 },
    );
  }
  const api = bookingApi(request, user, context);
  try {
    const hold = await api.hold({
      provider_slug: choice.slug,
      type: choice.type,
      state: choice.state,
      start,
    });
    if (choice.reschedule) {
      await api.reschedule(choice.reschedule, hold.id);
      return redirect(`/my-profile/consultations/${choice.reschedule}?moved=1`);
    }
    const query = new URLSearchParams({
      type: choice.type,
      provider: choice.slug,
      state: choice.state,
      hold: hold.id,
      start: hold.start,
      until: hold.expires_at,
    });
    return redirect(`/consultation/form?${query}`);
  } catch (error) {
    if (!isApiError(error) || error.status >= 500 || error.status === 0) throw error;
    const failure = describeApiError(error, { fallback: { key: "booking.errors.rejected" } });
    // The time went to someone else: the nearest free times, to choose again at once.
    const gone = TIME_GONE_CODES.includes(error.code ?? "");
    const nearest = gone
      ? await freeSlots(choice.slug, { type: choice.type, state: choice.state, near: start }, context)
      : [];
    return data<BookAction>(
      {
        message: failure.message,
        taken: gone ? start : null,
        nearest: nearest === "unavailable" ? [] : nearest,
      },
      { status: error.status },
    );
  }
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "consultationBook");

export default function BookPage() {
  const { t } = useTranslation();
  const { nameOf } = useUsStateNames();
  const timeZone = useTimeZone();
  const { slug, providerName, offers, type, state, reschedule, mismatch, slots } =
    useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return (
    <div className="page-container py-10 tablet:py-14">
      <PageHeading page="consultationBook" />
      <div className="mt-8 flex max-w-3xl flex-col gap-6">
        <p className="text-ink" data-testid="booking-with">
          {reschedule
            ? t("booking.rescheduleWith", { name: providerName ?? slug })
            : t("booking.with", { name: providerName ?? slug })}
        </p>
        {reschedule ? null : (
          <Form method="get" className="flex flex-col gap-4 rounded-md border-2 border-border p-4">
            <input type="hidden" name="provider" value={slug} />
            {offers.length > 1 ? (
              <ChoiceGroup
                formId="book"
                name="type"
                type="radio"
                legend={t("booking.typeLegend")}
                options={offers.map((kind) => ({ value: kind, label: t(`consultation.types.${kind}`) }))}
                selected={[type]}
              />
            ) : (
              <input type="hidden" name="type" value={type} />
            )}
            <VisitStateField
              formId="book"
              state={state}
              notLicensedBy={mismatch === "state" ? (providerName ?? slug) : null}
            />
            <div>
              <button type="submit" className="button-secondary">
                {t("booking.showTimes")}
              </button>
            </div>
          </Form>
        )}
        <p className="text-ink" data-testid="booking-zone">
          {t("booking.zone", { zone: timeZone })}{" "}
          <Link to="/my-profile" className="link">
            {t("booking.changeZone")}
          </Link>
        </p>
        <p className="rounded-md bg-surface-muted px-4 py-3 text-ink">{t("booking.policy")}</p>
        {result ? (
          <div className="flex flex-col gap-3" data-testid="booking-error">
            <p role="alert" className="font-semibold text-danger">
              {translateMessage(t, result.message)}
            </p>
            {result.nearest.length > 0 ? (
              <Form method="post" aria-labelledby="booking-nearest" className="flex flex-col gap-3">
                <h2 id="booking-nearest" className="font-bold text-ink text-xl">
                  {t("booking.nearest")}
                </h2>
                <SlotPicker slots={result.nearest} idPrefix="nearest" headingLevel={3} />
              </Form>
            ) : null}
          </div>
        ) : null}
        {!state ? (
          <p className="text-ink">{t("booking.chooseState")}</p>
        ) : mismatch ? null : slots === "unavailable" ? (
          <p role="status" className="text-ink">
            {t("booking.unavailable")}
          </p>
        ) : slots.length === 0 ? (
          <p className="text-ink" data-testid="no-slots">
            {t("booking.noSlots")}{" "}
            <Link to={`/find-a-doctor?state=${state}`} className="link">
              {t("consultation.consult.findLicensed", { state: nameOf(state) })}
            </Link>
          </p>
        ) : (
          <Form method="post" aria-label={t("booking.slotsLabel")}>
            <SlotPicker slots={slots} idPrefix="slots" />
          </Form>
        )}
        {reschedule ? (
          <p>
            <Link to={`/my-profile/consultations/${reschedule}`} className="link">
              {t("booking.keepTime")}
            </Link>
          </p>
        ) : null}
      </div>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
