import { z } from "zod";
import { dataEnvelope, listEnvelope } from "./envelope.ts";
import { PROVIDER_CREDENTIALS } from "./provider-limits.ts";
import { textSchema } from "./text.ts";
import { US_STATE_CODES } from "./us-states.ts";
import { VISIT_TYPE_IDS } from "./visit-types.ts";

/**
 * The directory editor of the operations console (ADR 065): an operator creates, edits and unlists
 * providers, uploads their photo and keeps their licences by state with expiry dates. Every change
 * is audited and reaches every API process's copy of the directory at once.
 */

const isoDateTime = z.iso.datetime({ offset: true });
/** A calendar day, YYYY-MM-DD, that exists. */
const isoDate = z.iso.date();
const slugSchema = z
  .string()
  .min(1)
  .max(80)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "lower-case letters, digits and single hyphens");

/** The most bytes of a photo upload (JPEG, PNG or WebP), checked again by its content. */
export const PROVIDER_PHOTO_MAX_BYTES = 2 * 1024 * 1024;
/** What a photo may be; the API decides by the first bytes and by decoding it, never by the header. */
export const PROVIDER_PHOTO_TYPES = Object.freeze(["image/jpeg", "image/png", "image/webp"] as const);
/**
 * A stored photo's name (ADR 070): the first 32 hex digits of the SHA-256 of its re-encoded bytes,
 * then `.jpg`; the directory shows it as `/images/provider-photos/<name>`.
 */
export const PROVIDER_PHOTO_NAME = /^[0-9a-f]{32}\.jpg$/;
export const providerPhotoParams = z.object({ name: z.string().regex(PROVIDER_PHOTO_NAME) }).strict();
export const PROVIDER_BIO_MAX_LENGTH = 4000;
export const DIRECTORY_EDITOR_PAGE_SIZE = 50;

/** One licence: a state (USPS code) and its last valid day (UTC), or none recorded. */
export const licenceSchema = z
  .object({
    state: z.enum(US_STATE_CODES as [string, ...string[]]),
    expires_on: isoDate.nullable(),
  })
  .strict();
export type Licence = z.infer<typeof licenceSchema>;

/** What an operator writes of a provider (create and edit send the whole of it). */
export const providerInput = z
  .object({
    slug: slugSchema,
    first_name: textSchema().trim().min(1).max(80),
    last_name: textSchema().trim().min(1).max(80),
    credentials: z.enum(PROVIDER_CREDENTIALS),
    bio: z
      .object({
        en: textSchema().trim().min(1).max(PROVIDER_BIO_MAX_LENGTH),
        bg: textSchema().trim().max(PROVIDER_BIO_MAX_LENGTH).default(""),
      })
      .strict(),
    specializations: z.array(slugSchema).max(50).default([]),
    conditions: z.array(slugSchema).max(200).default([]),
    /** ISO 639-1 codes, at least one. */
    languages: z
      .array(z.string().regex(/^[a-z]{2}$/, "ISO 639-1 code"))
      .min(1)
      .max(20),
    visit_types: z.array(z.enum(VISIT_TYPE_IDS as [string, ...string[]])).min(1),
    licences: z
      .array(licenceSchema)
      .max(60)
      .refine((list) => new Set(list.map((l) => l.state)).size === list.length, "a state at most once")
      .default([]),
  })
  .strict();
export type ProviderInput = z.input<typeof providerInput>;

/** A provider as the editor shows it, listed or not. */
export const editorProviderSchema = z
  .object({
    id: z.string(),
    slug: z.string(),
    first_name: z.string(),
    last_name: z.string(),
    credentials: z.enum(PROVIDER_CREDENTIALS),
    photo: z.string().nullable(),
    bio: z.object({ en: z.string(), bg: z.string() }).strict(),
    specializations: z.array(z.string()),
    conditions: z.array(z.string()),
    languages: z.array(z.string()),
    visit_types: z.array(z.string()),
    /** Every licence, with whether it counts today (API clock). */
    licences: z.array(licenceSchema.extend({ in_force: z.boolean() }).strict()),
    unlisted_at: isoDateTime.nullable(),
  })
  .strict();
export type EditorProvider = z.infer<typeof editorProviderSchema>;
export const editorProviderResponse = dataEnvelope(editorProviderSchema);
export const editorProviderListResponse = listEnvelope(editorProviderSchema);

export const editorProviderListQuery = z
  .object({
    /** Part of a name or slug. */
    q: textSchema().trim().max(100).optional(),
    page: z.coerce.number().int().min(1).max(10_000).default(1),
  })
  .strict();
export type EditorProviderListQuery = z.infer<typeof editorProviderListQuery>;

export const editorProviderParams = z.object({ id: z.uuid() }).strict();
