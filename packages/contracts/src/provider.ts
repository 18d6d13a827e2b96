import { z } from "zod";
import { localeSchema } from "./auth.ts";
import { dataEnvelope, listEnvelope } from "./envelope.ts";
import { DEFAULT_LOCALE } from "./locales.ts";
import {
  CONSULTATION_TYPES,
  PER_PAGE_DEFAULT,
  PER_PAGE_MAX,
  PROVIDER_CREDENTIALS,
  PROVIDER_QUERY_MAX_LENGTH,
  PROVIDER_SORTS,
  RATING_COMMENT_MAX_LENGTH,
} from "./provider-limits.ts";
import { textSchema } from "./text.ts";
import { US_STATE_CODES, type UsStateCode } from "./us-states.ts";
import { type OffersField, offersField, VISIT_TYPE_IDS } from "./visit-types.ts";

/**
 * `GET /api/v1/api/provider` (query parameters; returns a list), its detail view
 * `GET /api/v1/api/provider/{slug}`, and the care API's `POST /{product}/submit-rating`.
 */

export * from "./provider-limits.ts";

/**
 * A form that works without JavaScript submits every field, empty ones as `name=`: an empty value
 * means "no filter", never an error (so does a search box holding only spaces).
 */
const optionalParam = <T extends z.ZodType>(schema: T) =>
  z.preprocess(
    (value) => (typeof value === "string" && value.trim() === "" ? undefined : value),
    schema.optional(),
  );

const wholeNumberParam = (max: number) =>
  z
    .string()
    .regex(/^\d{1,9}$/, "Expected a whole number")
    .transform(Number)
    .pipe(z.number().int().min(1).max(max));

const slugParam = z
  .string()
  .max(100)
  .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, "Expected a slug such as primary-care");

export const providerListQuery = z
  .object({
    q: optionalParam(textSchema().trim().min(1).max(PROVIDER_QUERY_MAX_LENGTH)).describe(
      "Name: matches the start of the first name, the last name or the full name, ignoring case",
    ),
    specialization: optionalParam(slugParam).describe("Specialization slug"),
    condition: optionalParam(slugParam).describe("Condition slug"),
    state: optionalParam(
      z.enum(US_STATE_CODES as [UsStateCode, ...UsStateCode[]], "Expected a US state code such as CA"),
    ).describe("Two-letter US state code the provider is licensed in"),
    type: optionalParam(z.enum(CONSULTATION_TYPES)).describe("Consultation type offered"),
    available_today: optionalParam(z.enum(["true", "false"]))
      .transform((value) => (value === undefined ? undefined : value === "true"))
      .describe("true: only providers available today; false: only those who are not"),
    sort: optionalParam(z.enum(PROVIDER_SORTS))
      .default("rating")
      .describe("rating: best rated first (then by name); name: by last name, first name"),
    page: optionalParam(wholeNumberParam(100_000)).default(1).describe("Page number, from 1"),
    per_page: optionalParam(wholeNumberParam(PER_PAGE_MAX))
      .default(PER_PAGE_DEFAULT)
      .describe(`Results per page, 1 to ${PER_PAGE_MAX}`),
    lang: optionalParam(localeSchema).default(DEFAULT_LOCALE).describe("Language of bios and names"),
  })
  .strict();
export type ProviderListQuery = z.infer<typeof providerListQuery>;

export const providerDetailQuery = z
  .object({
    lang: optionalParam(localeSchema).default(DEFAULT_LOCALE).describe("Language of bios and names"),
  })
  .strict();

export const providerSlugParams = z.object({ slug: textSchema().min(1).max(200) });

/** `offers_chat`, `offers_video`: whether the provider offers each kind of visit (visit-types.ts). */
const offersFields = Object.fromEntries(VISIT_TYPE_IDS.map((type) => [offersField(type), z.boolean()])) as {
  [K in OffersField]: z.ZodBoolean;
};

const namedSlug = z.object({ slug: z.string().min(1), name: z.string().min(1) }).strict();

export const provider = z
  .object({
    id: z.uuid(),
    slug: z.string().min(1),
    /** "Ana Petrova" (the credentials come separately: "MD"). */
    name: z.string().min(1),
    first_name: z.string().min(1),
    last_name: z.string().min(1),
    credentials: z.enum(PROVIDER_CREDENTIALS),
    /** A same-origin image path, or null (show initials). */
    photo: z.string().nullable(),
    bio: z.string(),
    specializations: z.array(namedSlug),
    conditions: z.array(namedSlug),
    /** USPS codes of the states where the provider is licensed, alphabetical. */
    states: z.array(z.string().length(2)),
    /** ISO 639-1 codes, English first. */
    languages: z.array(z.string().min(2)),
    ...offersFields,
    /**
     * Only a provider with a clinician account can be available: while that clinician is on duty in
     * the care console, or with a free slot left on the clinician's local today (ADR 059).
     */
    available_today: z.boolean(),
    /** Minutes a new request can expect to wait for this provider now; null when not on duty. */
    expected_wait_minutes: z.number().int().min(0).nullable(),
    /**
     * The start of the provider's first free bookable slot (any visit type they offer), ISO; null
     * without one in the booking horizon (ADR 059).
     */
    next_available: z.iso.datetime().nullable(),
    /**
     * A clinician account works as this provider, enabled, with weekly hours or on duty: only then
     * can the provider be requested or booked.
     */
    taking_visits: z.boolean(),
    rating: z
      .object({
        /** 0 to 5 with two decimals; 0 while count is 0. */
        average: z.number().min(0).max(5),
        count: z.number().int().min(0),
      })
      .strict(),
  })
  .strict();
export type Provider = z.infer<typeof provider>;

/**
 * A search result: what a result card shows. The bio, the conditions and the languages are read on
 * the provider's own page (`GET /api/provider/{slug}`); a page of 20 full providers was most of a
 * search's answer and of the time spent writing it.
 */
export const providerCard = provider.omit({ bio: true, conditions: true, languages: true });
export type ProviderCard = z.infer<typeof providerCard>;

export const providerListResponse = listEnvelope(providerCard);
export type ProviderListResponse = z.infer<typeof providerListResponse>;
export const providerResponse = dataEnvelope(provider);
export type ProviderResponse = z.infer<typeof providerResponse>;

export const PROVIDER_ERRORS = Object.freeze({
  notFound: "Provider not found",
  consultationNotFound: "Consultation not found",
  notYourConsultation: "You can only rate your own consultations",
  notCompleted: "You can rate a consultation once it is completed",
  alreadyRated: "This consultation has already been rated",
} as const);

export const submitRatingRequest = z
  .object({
    user_id: z.uuid(),
    consultation_id: z.uuid(),
    stars: z.number().int().min(1).max(5),
    /** Optional; blank is the same as none. */
    comment: textSchema()
      .trim()
      .max(RATING_COMMENT_MAX_LENGTH)
      .nullish()
      .transform((value) => (value ? value : null)),
  })
  .strict();
export type SubmitRatingRequest = z.input<typeof submitRatingRequest>;

export const rating = z
  .object({
    id: z.uuid(),
    provider_id: z.uuid(),
    stars: z.number().int().min(1).max(5),
    comment: z.string().nullable(),
    created_at: z.iso.datetime(),
  })
  .strict();
export type Rating = z.infer<typeof rating>;
export const ratingResponse = dataEnvelope(rating);
export type RatingResponse = z.infer<typeof ratingResponse>;
