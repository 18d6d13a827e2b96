import { describe, expect, it } from "vitest";
import { demoPatientFromEnv } from "./seed.ts";

describe("the demo patient of npm run seed", () => {
  it("is created outside production, and in production only when SEED_DEMO_PATIENT=true asks", () => {
    expect(demoPatientFromEnv({ NODE_ENV: "production" })).toBe(false);
    expect(demoPatientFromEnv({ NODE_ENV: "production", SEED_DEMO_PATIENT: "true" })).toBe(true);
    expect(demoPatientFromEnv({ NODE_ENV: "development" })).toBe(true);
    expect(demoPatientFromEnv({})).toBe(true);
    expect(demoPatientFromEnv({ NODE_ENV: "development", SEED_DEMO_PATIENT: "false" })).toBe(false);
    expect(() => demoPatientFromEnv({ SEED_DEMO_PATIENT: "maybe" })).toThrow(/SEED_DEMO_PATIENT/);
  });
});
