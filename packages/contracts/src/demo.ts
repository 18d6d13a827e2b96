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
