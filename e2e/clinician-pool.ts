/**
 * The journeys that need a clinician, each with an account of its own (docs/decisions/050): a
 * second-factor code is spent once per account, so journeys that shared one account waited for the
 * next 30-second step. global-setup.ts invites one clinician per name here with the care-team
 * command's service before the API starts (e2e/invite-clinicians.ts), and once the stack runs, makes
 * each ready as the invited person would (a password, then two-step login: activateClinician in
 * clinician-helpers.ts) before any journey moves the API's clock past the invitation's link. A
 * journey takes its own with `clinicianFor(name)` (auth-helpers.ts). Each works as a provider of
 * the demo directory (an MD or a DO) offering chat and video, licensed in a state no other
 * journey's clinician has: the journey's visits are in that state.
 */
export const CLINICIAN_JOURNEYS = [
  "booking",
  "booking-video",
  "care-visit",
  "console-hours",
  "consultations-cancel",
  "consultations-waiting-room",
  "video-device",
  "video-visit",
  "visit-chat",
] as const;

export type ClinicianJourney = (typeof CLINICIAN_JOURNEYS)[number];

/** An invited clinician: the account's address and the provider it works as. */
export type InvitedClinician = {
  email: string;
  providerSlug: string;
  /** The provider's name as the site writes it after "Dr": "Emily Walker". */
  name: string;
  /** A state the provider is licensed in (its visits' state): "NJ", "New Jersey". */
  state: { code: string; name: string };
};

/** An invited clinician with a password and two-step login on. */
export type ReadyClinician = InvitedClinician & {
  password: string;
  /** The authenticator's secret (base32). */
  secret: string;
  /** The last 30-second step a login of this account spent a code of. */
  lastUsedStep: number;
};

export type ClinicianPool<T extends InvitedClinician = InvitedClinician> = Record<ClinicianJourney, T>;

/** The operations journey's operator, created by e2e/invite-clinicians.ts with the care-team command. */
export const E2E_OPERATOR_EMAIL = "e2e-operator@example.org";
