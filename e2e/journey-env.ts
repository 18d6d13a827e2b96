/**
 * What every web server the journeys start needs besides its ports: nothing is in front of it (the
 * production server insists that TRUST_PROXY is said), and every journey is one visitor (the browser
 * on 127.0.0.1), far busier than a person, so the edge limit must not stop it.
 */
export const JOURNEY_WEB_ENV = { TRUST_PROXY: "false", WEB_RATE_LIMIT_MAX: "100000" } as const;
