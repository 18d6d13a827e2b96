import { z } from "zod";
import { localeSchema } from "./auth.ts";
import { dataEnvelope } from "./envelope.ts";
import { DEFAULT_LOCALE } from "./locales.ts";

/**
 * `GET /api/v1/api/specialization` (returns a list): the specializations offered, each
 * with the conditions it covers, in the language asked for.
 */

export const specializationListQuery = z.object({
  lang: localeSchema.default(DEFAULT_LOCALE).describe("Language of names and descriptions"),
});
export type SpecializationListQuery = z.infer<typeof specializationListQuery>;

export const conditionSummary = z.object({
  slug: z.string().min(1),
  name: z.string().min(1),
});
export type ConditionSummary = z.infer<typeof conditionSummary>;

export const specialization = z.object({
  id: z.number().int().positive(),
  slug: z.string().min(1),
  name: z.string().min(1),
  description: z.string(),
  conditions: z.array(conditionSummary),
});
export type Specialization = z.infer<typeof specialization>;

export const specializationListResponse = dataEnvelope(z.array(specialization));
export type SpecializationListResponse = z.infer<typeof specializationListResponse>;
