/**
 * Option values and limits of the provider directory and ratings, with no dependency: pages (the
 * search boxes, the rating form, the intake form) import them without pulling zod into the
 * browser's JavaScript. provider.ts builds its schemas from the same values and re-exports them.
 */
export const PROVIDER_SORTS = ["rating", "name"] as const;
export type ProviderSort = (typeof PROVIDER_SORTS)[number];
export const CONSULTATION_TYPES = ["chat", "video"] as const;
export type ConsultationType = (typeof CONSULTATION_TYPES)[number];
export const PROVIDER_CREDENTIALS = ["MD", "DO", "NP", "PA"] as const;
export const PER_PAGE_DEFAULT = 20;
export const PER_PAGE_MAX = 50;
export const PROVIDER_QUERY_MAX_LENGTH = 100;
export const RATING_COMMENT_MAX_LENGTH = 1000;
