/**
 * The demo patient that the demo seed creates (`npm start` on an empty database, `npm run seed`),
 * so a visitor can log in at once. Public by design: it exists only in demo data, its address is
 * on the reserved `.example` domain, and it must never be created in a real deployment's data.
 */
export const DEMO_PATIENT = Object.freeze({
  email: "demo@ambercare.example",
  password: "sunny-meadow-visit",
  first_name: "Dana",
  last_name: "Demo",
} as const);

/**
 * The demo clinician of the demo seed (same rule as the demo patient: never in a real deployment
 * unless asked for). It works as the demo provider, licensed in every state for chat and video.
 * Its second factor is on with this published TOTP secret: add it to an authenticator app, or
 * print the current code with `npm run care-team -- demo-code`.
 */
export const DEMO_CLINICIAN = Object.freeze({
  email: "clinician@ambercare.example",
  password: "steady-harbor-shift",
  totp_secret: "XUMRHTY4TBCA4IZDC6O36ZCF2EYKNK7G",
  provider_slug: "casey-carter-demo",
  first_name: "Casey",
  last_name: "Carter",
} as const);
