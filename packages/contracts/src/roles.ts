import { z } from "zod";
import { dataEnvelope } from "./envelope.ts";

/**
 * Who an account is. A patient uses the site for their own care; a clinician works in the care
 * console for the one directory provider their account is linked to; an operator runs the clinic
 * from the operations console (ADR 065). The built-in service account keeps the default role and is
 * told apart by its own flag.
 */
export const ACCOUNT_ROLES = ["patient", "clinician", "operator"] as const;
export type AccountRole = (typeof ACCOUNT_ROLES)[number];
export const DEFAULT_ACCOUNT_ROLE: AccountRole = "patient";
export const accountRoleSchema = z.enum(ACCOUNT_ROLES);

/**
 * The `{ error }` texts of the role checks (codes CLINICIAN_ONLY, PATIENT_ONLY, OPERATOR_ONLY,
 * SECOND_FACTOR_SETUP_REQUIRED).
 */
export const ROLE_ERRORS = Object.freeze({
  clinicianOnly: "This call is for clinicians",
  patientOnly: "This call is for patients",
  operatorOnly: "This call is for operators",
  secondFactorSetupRequired: "Set up two-step login before using the care console",
  operatorSecondFactorSetupRequired: "Set up two-step login before using the operations console",
});

/** How long an invitation's set-password link works: long enough for a weekend. */
export const CLINICIAN_INVITE_TTL_MS = 72 * 60 * 60_000;

/** `GET /api/care-team/me`: the logged-in clinician and the provider they work as. */
export const clinicianProfileSchema = z
  .object({
    user_id: z.string(),
    email: z.string(),
    name: z.string(),
    provider: z
      .object({
        id: z.string(),
        slug: z.string(),
        name: z.string(),
        credentials: z.string(),
      })
      .strict(),
  })
  .strict();
export type ClinicianProfile = z.infer<typeof clinicianProfileSchema>;
export const clinicianProfileResponse = dataEnvelope(clinicianProfileSchema);
