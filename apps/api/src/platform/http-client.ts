/**
 * The API's client of third-party HTTP APIs (Stripe, reCAPTCHA, SendGrid): `fetch` by default,
 * a fake in tests, since those services cannot be reached from a test run.
 */
export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;
