import { CONSULTATION_TYPES, type ConsultationType } from "@ambercare/contracts/provider-limits";
import { isUsStateCode } from "@ambercare/contracts/us-states";
import {
  NO_VISIT_CREDITS,
  type OffersField,
  offeredBy,
  PREFERRED_VISIT_TYPE,
} from "@ambercare/contracts/visit-types";

/**
 * What the patient chose before the health questions — the visit type, the provider (if any) and the
 * state they are in — carried in the query of /consultation/consult and /consultation/form, and
 * checked against the provider before the form: a provider who does not offer the type, or is not
 * licensed in the state, would only refuse the visit once every step is filled in.
 */

/** The part of a directory provider the choice depends on. */
export type ChosenProvider = {
  slug: string;
  name: string;
  offers: readonly ConsultationType[];
  /** USPS codes of the states the provider is licensed in. */
  states: readonly string[];
  /** A clinician account works as the provider (ADR 059): only then can the provider be requested. */
  takingVisits: boolean;
};

export type VisitChoice = {
  type: ConsultationType;
  provider: string | null;
  state: string | null;
};

export function toChosenProvider(
  provider: {
    slug: string;
    name: string;
    credentials: string;
    states: string[];
    taking_visits: boolean;
  } & Record<OffersField, boolean>,
): ChosenProvider {
  return {
    slug: provider.slug,
    name: `${provider.name}, ${provider.credentials}`,
    offers: offeredBy(provider),
    states: provider.states,
    takingVisits: provider.taking_visits,
  };
}

/** The types the page offers: the provider's, or every kind without a provider. */
export function offeredTypes(provider: ChosenProvider | null): readonly ConsultationType[] {
  return provider ? provider.offers : CONSULTATION_TYPES;
}

/**
 * The type to select: the one asked for when it is offered; else the one the patient has a paid
 * visit for (when only one has), else the preferred kind (video) when offered, else the first
 * offered.
 */
export function chosenType(
  asked: string | null,
  offered: readonly ConsultationType[],
  credits: Readonly<Record<ConsultationType, number>> = NO_VISIT_CREDITS,
): ConsultationType {
  const allowed = offered.length > 0 ? offered : CONSULTATION_TYPES;
  const requested = allowed.find((type) => type === asked);
  if (requested) return requested;
  const paid = allowed.filter((type) => credits[type] > 0);
  if (paid.length === 1) return paid[0]!;
  return allowed.includes(PREFERRED_VISIT_TYPE) ? PREFERRED_VISIT_TYPE : allowed[0]!;
}

/** A state code from the query or the profile, or null. */
export function stateCode(value: string | null | undefined): string | null {
  return value && isUsStateCode(value) ? value : null;
}

/**
 * Why the chosen provider cannot take this visit: they do not offer the type, or are not licensed
 * in the state; null when they can (or when nothing is chosen yet).
 */
export function providerMismatch(
  provider: ChosenProvider | null,
  type: ConsultationType,
  state: string | null,
): "type" | "state" | null {
  if (!provider) return null;
  if (!provider.offers.includes(type)) return "type";
  if (state && !provider.states.includes(state)) return "state";
  return null;
}

/** The query of the consult page (and of the form) for a choice: what the "Change" link keeps. */
export function choiceQuery(choice: VisitChoice): string {
  const params = new URLSearchParams({ type: choice.type });
  if (choice.provider) params.set("provider", choice.provider);
  if (choice.state) params.set("state", choice.state);
  return params.toString();
}
