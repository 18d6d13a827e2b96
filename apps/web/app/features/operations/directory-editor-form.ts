import type { EditorProvider, ProviderInput } from "@ambercare/contracts/directory-editor";
import { PROVIDER_BIO_MAX_LENGTH } from "@ambercare/contracts/directory-editor";
import { PROVIDER_CREDENTIALS } from "@ambercare/contracts/provider-limits";
import { US_STATE_CODES } from "@ambercare/contracts/us-states";
import { VISIT_TYPE_IDS } from "@ambercare/contracts/visit-types";
import type { FieldErrors, FormErrorResult, FormMessage } from "#app/lib/forms.ts";

export type ProviderField =
  | "slug"
  | "first_name"
  | "last_name"
  | "credentials"
  | "bio_en"
  | "bio_bg"
  | "languages"
  | "visit_types"
  | "licences";
export const PROVIDER_FIELDS: readonly ProviderField[] = [
  "slug",
  "first_name",
  "last_name",
  "credentials",
  "bio_en",
  "bio_bg",
  "languages",
  "visit_types",
  "licences",
];

/** What the form shows: the provider's values, or what was typed in a refused submission. */
export type ProviderDraft = {
  slug: string;
  first_name: string;
  last_name: string;
  credentials: string;
  bio_en: string;
  bio_bg: string;
  /** Comma-separated ISO 639-1 codes, as typed. */
  languages: string;
  visit_types: string[];
  specializations: string[];
  conditions: string[];
  licences: { state: string; expires_on: string }[];
};

/** A refused submission: what was typed and what is wrong with it (the error summary's shape). */
export type ProviderFormFailure = { draft: ProviderDraft; result: FormErrorResult<ProviderField> };

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const LANGUAGE = /^[a-z]{2}$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

export const EMPTY_DRAFT: ProviderDraft = {
  slug: "",
  first_name: "",
  last_name: "",
  credentials: "",
  bio_en: "",
  bio_bg: "",
  languages: "en",
  visit_types: [...VISIT_TYPE_IDS],
  specializations: [],
  conditions: [],
  licences: [],
};

export function draftOf(provider: EditorProvider): ProviderDraft {
  return {
    slug: provider.slug,
    first_name: provider.first_name,
    last_name: provider.last_name,
    credentials: provider.credentials,
    bio_en: provider.bio.en,
    bio_bg: provider.bio.bg,
    languages: provider.languages.join(", "),
    visit_types: provider.visit_types,
    specializations: provider.specializations,
    conditions: provider.conditions,
    licences: provider.licences.map((licence) => ({
      state: licence.state,
      expires_on: licence.expires_on ?? "",
    })),
  };
}

/** A real calendar day (2026-02-30 is not). */
function isDay(text: string): boolean {
  if (!DAY.test(text)) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
}

/**
 * The provider form (no JavaScript needed): the fields, the checked visit types, specializations
 * and conditions, and the licences table — one row per `licence_state` / `licence_expires` pair,
 * a row whose index is in `licence_remove` left out, a row without a state ignored (the empty row
 * for adding one). Checked here for the operator's sake; the API checks again.
 */
export function parseProviderForm(
  form: FormData,
): { ok: true; body: ProviderInput; draft: ProviderDraft } | { ok: false; failure: ProviderFormFailure } {
  const field = (name: string) => String(form.get(name) ?? "").trim();
  const all = (name: string) => form.getAll(name).map((value) => String(value).trim());
  const states = all("licence_state");
  const expiries = all("licence_expires");
  const removed = new Set(all("licence_remove"));
  const licences = states
    .map((state, index) => ({ state, expires_on: expiries[index] ?? "", index }))
    .filter((row) => row.state !== "" && !removed.has(String(row.index)))
    .map(({ state, expires_on }) => ({ state, expires_on }));
  const draft: ProviderDraft = {
    slug: field("slug").toLowerCase(),
    first_name: field("first_name"),
    last_name: field("last_name"),
    credentials: field("credentials"),
    bio_en: field("bio_en"),
    bio_bg: field("bio_bg"),
    languages: field("languages"),
    visit_types: all("visit_types").filter((id) => (VISIT_TYPE_IDS as readonly string[]).includes(id)),
    specializations: all("specializations").filter(Boolean),
    conditions: all("conditions").filter(Boolean),
    licences,
  };
  const languages = draft.languages
    .toLowerCase()
    .split(/[\s,]+/)
    .filter(Boolean);
  const errors: FieldErrors<ProviderField> = {};
  const key = (name: string): FormMessage => ({ key: `operations.directory.errors.${name}` as never });
  if (!SLUG.test(draft.slug) || draft.slug.length > 80) errors.slug = key("slug");
  if (!draft.first_name || draft.first_name.length > 80) errors.first_name = key("firstName");
  if (!draft.last_name || draft.last_name.length > 80) errors.last_name = key("lastName");
  if (!(PROVIDER_CREDENTIALS as readonly string[]).includes(draft.credentials))
    errors.credentials = key("credentials");
  if (!draft.bio_en || draft.bio_en.length > PROVIDER_BIO_MAX_LENGTH) errors.bio_en = key("bioEn");
  if (draft.bio_bg.length > PROVIDER_BIO_MAX_LENGTH) errors.bio_bg = key("bioBg");
  if (languages.length === 0 || !languages.every((code) => LANGUAGE.test(code)))
    errors.languages = key("languages");
  if (draft.visit_types.length === 0) errors.visit_types = key("visitTypes");
  const seen = new Set<string>();
  for (const licence of licences) {
    if (!(US_STATE_CODES as readonly string[]).includes(licence.state) || seen.has(licence.state)) {
      errors.licences = key("licenceState");
      break;
    }
    seen.add(licence.state);
    if (licence.expires_on !== "" && !isDay(licence.expires_on)) {
      errors.licences = key("licenceExpiry");
      break;
    }
  }
  if (Object.keys(errors).length > 0) {
    return { ok: false, failure: { draft, result: { status: "error", values: {}, fieldErrors: errors } } };
  }
  return {
    ok: true,
    draft,
    body: {
      slug: draft.slug,
      first_name: draft.first_name,
      last_name: draft.last_name,
      credentials: draft.credentials as ProviderInput["credentials"],
      bio: { en: draft.bio_en, bg: draft.bio_bg },
      specializations: draft.specializations,
      conditions: draft.conditions,
      languages: [...new Set(languages)],
      visit_types: draft.visit_types,
      licences: licences.map((licence) => ({
        state: licence.state,
        expires_on: licence.expires_on === "" ? null : licence.expires_on,
      })),
    },
  };
}
