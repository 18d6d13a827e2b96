/**
 * What every web server the journeys start needs besides its ports: nothing is in front of it (the
 * production server insists that TRUST_PROXY is said), and every journey is one visitor (the browser
 * on 127.0.0.1), far busier than a person, so the edge limit must not stop it.
 */
export const JOURNEY_WEB_ENV = {
  TRUST_PROXY: "false",
  WEB_RATE_LIMIT_MAX: "100000",
  WEB_ADDRESS_RATE_LIMIT_MAX: "100000",
} as const;

/** The API of a journey stack: outside production, for its test clock, hashing cheaply. */
export const JOURNEY_API_ENV = {
  NODE_ENV: "test",
  // Cheap password hashing (production refuses it): journeys sign up and log in many times.
  ARGON2_PARAMS: "m=64,t=1,p=1",
  // A small captcha proof of work (a few hundred hashes instead of about 50 000): every fixture
  // patient solves one in Node and every sign-up form one in its page, each the same steps whatever
  // the size; the size a clinic runs with is the API's own tests' business.
  ALTCHA_MAX_NUMBER: "1000",
} as const;

/**
 * The environment of a journey stack on its own ports and data directory, one process each. The
 * API's general limit per address is lifted for the same reason as the edge's: a journey's patient,
 * its clinician and the test's own API calls are all one address, 127.0.0.1. A video-call round
 * (`bench/live --calls`) makes about 65 API calls for both sides, so at one call every 12 s the
 * two people together passed the 300 a minute meant for one, and the pages they were shown were
 * honest 429s: a missing "Start video call", a ring not answered, a call without frames.
 */
export function journeyStackEnv(port: number, apiPort: number, dataDir: string) {
  return {
    PORT: String(port),
    API_PORT: String(apiPort),
    DATA_DIR: dataDir,
    LOG_LEVEL: "warn",
    ...JOURNEY_WEB_ENV,
    RATE_LIMIT_MAX: "100000",
    RATE_LIMIT_ADDRESS_MAX: "100000",
    // One process each: a journey reads what it just wrote, and its failures name one server.
    WEB_PROCESSES: "1",
    API_PROCESSES: "1",
  };
}
