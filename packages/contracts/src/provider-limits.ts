/**
 * Option values and limits of the provider directory and ratings, with no dependency: pages (the
 * search boxes, the rating form, the intake form) import them without pulling zod into the
 * browser's JavaScript. provider.ts builds its schemas from the same values and re-exports them.
 */
import { VISIT_TYPE_IDS, type VisitType } from "./visit-types.ts";

export const PROVIDER_SORTS = ["rating", "name"] as const;
export type ProviderSort = (typeof PROVIDER_SORTS)[number];
/** The kinds of visit, from their one list (visit-types.ts): the names the API's schemas use. */
export const CONSULTATION_TYPES = VISIT_TYPE_IDS;
export type ConsultationType = VisitType;
export const PROVIDER_CREDENTIALS = ["MD", "DO", "NP", "PA"] as const;
export const PER_PAGE_DEFAULT = 20;
export const PER_PAGE_MAX = 50;
export const PROVIDER_QUERY_MAX_LENGTH = 100;
export const RATING_COMMENT_MAX_LENGTH = 1000;
