import { AUTH_ERRORS, userResponse } from "@ambercare/contracts/auth";
import { INVALID_ACCESS_TOKEN } from "@ambercare/contracts/envelope";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createManualClock } from "#api/platform/clock.ts";
import {
  bearer,
  createTestApp,
  registerPatient,
  serviceToken,
  TEST_PUBLIC_API_TOKEN,
  type TestApp,
} from "#api/test-support.ts";

const DETAILS = "/ambercare/get-user-details";
const UPDATE = "/ambercare/update-user";
const COMPLETE = "/ambercare/complete-profile";

const clock = createManualClock(new Date("2025-07-01T12:00:00Z"));
let t: TestApp;
let service: string;

beforeAll(async () => {
  t = await createTestApp({ clock, env: { RATE_LIMIT_MAX: "100000" } });
  service = await serviceToken(t.app);
});

afterAll(async () => {
  await t.close();
});

const profile = {
  first_name: "Jane",
  last_name: "Doe",
  date_of_birth: "1990-02-28",
  phone: "+1 (206) 555-0100",
  address_line1: "1 Pine St",
  address_line2: "Suite 5",
  city: "Seattle",
  state: "WA",
  zip: "98101",
  gender: "female",
};

const details = (userId: string, token?: string) =>
  t.app.inject({
    method: "GET",
    url: `${DETAILS}/${userId}`,
    headers: token === undefined ? {} : bearer(token),
  });

const post = (url: string, token: string | undefined, payload: unknown) =>
  t.app.inject({
    method: "POST",
    url,
    headers: token === undefined ? {} : bearer(token),
    payload: payload as object,
  });

describe("GET /ambercare/get-user-details/{userId}", () => {
  it("returns the patient's own account as { data }, with the main or the care token", async () => {
    const patient = await registerPatient(t.app);
    const care = await t.app.inject({
      method: "POST",
      url: "/auth/login",
      headers: bearer(TEST_PUBLIC_API_TOKEN),
      payload: { email: patient.email, password: patient.password },
    });
    for (const token of [patient.access_token, care.json().access_token as string]) {
      const res = await details(patient.user_id, token);
      expect(res.statusCode).toBe(200);
      const { data } = userResponse.parse(res.json());
      expect(data).toMatchObject({
        id: patient.user_id,
        email: patient.email,
        profile_completed: false,
        role: "patient",
      });
      expect(Object.keys(data).sort()).toEqual(
        [
          "address_line1",
          "address_line2",
          "city",
          "created_at",
          "date_of_birth",
          "email",
          "first_name",
          "gender",
          "id",
          "last_name",
          "locale",
          "phone",
          "profile_completed",
          "role",
          "state",
          "time_zone",
          "zip",
        ].sort(),
      );
      expect(res.body).not.toMatch(/password|argon2|service/i);
    }
  });

  it("accepts the own id written in capitals", async () => {
    const patient = await registerPatient(t.app);
    const res = await details(patient.user_id.toUpperCase(), patient.access_token);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.id).toBe(patient.user_id);
  });

  it("answers 403 for another patient's id, existing or not, and for the service token", async () => {
    const jane = await registerPatient(t.app);
    const john = await registerPatient(t.app);
    for (const [userId, token] of [
      [john.user_id, jane.access_token],
      ["7d9c3a2e-4f1b-4c8a-9e2d-1a2b3c4d5e6f", jane.access_token],
      [jane.user_id, service],
    ] as const) {
      const res = await details(userId, token);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ error: "You can only access your own account", code: "OWN_ACCOUNT_ONLY" });
    }
  });

  it("answers 401 without a valid token and 400 for an id that is not a UUID", async () => {
    const patient = await registerPatient(t.app);
    for (const token of [undefined, "", TEST_PUBLIC_API_TOKEN, "x".repeat(43)]) {
      const res = await details(patient.user_id, token);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error: INVALID_ACCESS_TOKEN, code: "INVALID_ACCESS_TOKEN" });
    }
    const bad = await details("1", patient.access_token);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatch(/"userId"/);
    expect(bad.json().code).toBe("VALIDATION_FAILED");
    const huge = await details("x".repeat(10_240), patient.access_token);
    expect(huge.statusCode).toBe(400);
  });
});

describe("POST /ambercare/update-user", () => {
  it("changes only the fields sent and answers 200 { data: user }", async () => {
    const patient = await registerPatient(t.app);
    const res = await post(UPDATE, patient.access_token, {
      user_id: patient.user_id,
      phone: "206 555 0199",
      city: "  Tacoma ",
      locale: "bg",
    });
    expect(res.statusCode).toBe(200);
    const { data } = userResponse.parse(res.json());
    expect(data).toMatchObject({
      phone: "206 555 0199",
      city: "Tacoma",
      locale: "bg",
      first_name: "Jane",
      last_name: "Doe",
      state: null,
      profile_completed: false,
    });
    const again = await details(patient.user_id, patient.access_token);
    expect(again.json().data).toEqual(data);
  });

  it("clears the second address line with an empty string", async () => {
    const patient = await registerPatient(t.app);
    await post(UPDATE, patient.access_token, { user_id: patient.user_id, address_line2: "Apt 9" });
    const res = await post(UPDATE, patient.access_token, { user_id: patient.user_id, address_line2: "" });
    expect(res.json().data.address_line2).toBeNull();
  });

  it("answers 200 with the unchanged user when only user_id is sent", async () => {
    const patient = await registerPatient(t.app);
    const res = await post(UPDATE, patient.access_token, { user_id: patient.user_id });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.id).toBe(patient.user_id);
  });

  it("marks the profile complete once a save leaves every required field filled in", async () => {
    const patient = await registerPatient(t.app);
    const { gender, ...allButGender } = profile;
    const partly = await post(UPDATE, patient.access_token, { user_id: patient.user_id, ...allButGender });
    expect(partly.json().data.profile_completed).toBe(false);
    const res = await post(UPDATE, patient.access_token, { user_id: patient.user_id, gender });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ ...profile, profile_completed: true });
    const again = await details(patient.user_id, patient.access_token);
    expect(again.json().data.profile_completed).toBe(true);
  });

  it("answers 403 for another patient's user_id and for the service token, changing nothing", async () => {
    const jane = await registerPatient(t.app);
    const john = await registerPatient(t.app);
    for (const token of [jane.access_token, service]) {
      const res = await post(UPDATE, token, { user_id: john.user_id, first_name: "Mallory" });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ error: AUTH_ERRORS.ownAccountOnly, code: "OWN_ACCOUNT_ONLY" });
    }
    expect((await details(john.user_id, john.access_token)).json().data.first_name).toBe("Jane");
  });

  it("refuses a birth date in the future", async () => {
    const patient = await registerPatient(t.app);
    const tomorrow = await post(UPDATE, patient.access_token, {
      user_id: patient.user_id,
      date_of_birth: "2025-07-02",
    });
    expect(tomorrow.statusCode).toBe(400);
    expect(tomorrow.json()).toEqual({
      error: AUTH_ERRORS.dateOfBirthInFuture,
      code: "DATE_OF_BIRTH_IN_FUTURE",
    });
    const today = await post(UPDATE, patient.access_token, {
      user_id: patient.user_id,
      date_of_birth: "2025-07-01",
    });
    expect(today.statusCode).toBe(200);
  });

  it("saves the time zone the patient's times are shown in, and keeps it when other fields change", async () => {
    const patient = await registerPatient(t.app);
    const fresh = await details(patient.user_id, patient.access_token);
    expect(fresh.json().data.time_zone).toBeNull();
    const res = await post(UPDATE, patient.access_token, {
      user_id: patient.user_id,
      time_zone: "America/Los_Angeles",
    });
    expect(res.statusCode).toBe(200);
    expect(userResponse.parse(res.json()).data.time_zone).toBe("America/Los_Angeles");
    await post(UPDATE, patient.access_token, { user_id: patient.user_id, city: "Sofia" });
    const again = await details(patient.user_id, patient.access_token);
    expect(again.json().data).toMatchObject({ city: "Sofia", time_zone: "America/Los_Angeles" });
    const moved = await post(UPDATE, patient.access_token, {
      user_id: patient.user_id,
      time_zone: "Europe/Sofia",
    });
    expect(moved.json().data.time_zone).toBe("Europe/Sofia");
  });

  it.each([
    ["an unknown zone", "Mars/Olympus_Mons"],
    ["an offset instead of a zone", "+02:00"],
    ["an empty zone", ""],
    ["a 1 kB zone", `Europe/${"x".repeat(1024)}`],
    ["a number", 2],
  ])("answers 400 { error } for %s as time_zone, keeping the saved one", async (_label, timeZone) => {
    const patient = await registerPatient(t.app);
    await post(UPDATE, patient.access_token, { user_id: patient.user_id, time_zone: "Europe/Sofia" });
    const res = await post(UPDATE, patient.access_token, { user_id: patient.user_id, time_zone: timeZone });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: expect.any(String), code: "VALIDATION_FAILED" });
    const again = await details(patient.user_id, patient.access_token);
    expect(again.json().data.time_zone).toBe("Europe/Sofia");
  });

  it.each([
    ["no user_id", { user_id: undefined, first_name: "Jane" }],
    ["a user_id that is not a UUID", { user_id: "42", first_name: "Jane" }],
    ["a state outside the 50", { state: "PR" }],
    ["a gender outside the spec's list", { gender: "Male" }],
    ["an impossible date", { date_of_birth: "1990-02-30" }],
    ["a number as phone", { phone: 2065550100 }],
    ["a 10 kB city", { city: "x".repeat(10_240) }],
    ["an unknown field", { email: "new@example.org" }],
    ["a blank first name", { first_name: "  " }],
  ])("answers 400 { error } for %s", async (_label, fields) => {
    const patient = await registerPatient(t.app);
    const res = await post(UPDATE, patient.access_token, { user_id: patient.user_id, ...fields });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: expect.any(String), code: "VALIDATION_FAILED" });
  });

  it("answers 401 without a token", async () => {
    const patient = await registerPatient(t.app);
    const res = await post(UPDATE, undefined, { user_id: patient.user_id, city: "Boise" });
    expect(res.statusCode).toBe(401);
  });
});

describe("POST /ambercare/complete-profile", () => {
  it("sets every field and marks the profile complete, keeping the first completion", async () => {
    const patient = await registerPatient(t.app);
    const res = await post(COMPLETE, patient.access_token, { user_id: patient.user_id, ...profile });
    expect(res.statusCode).toBe(200);
    const { data } = userResponse.parse(res.json());
    expect(data).toMatchObject({ ...profile, profile_completed: true });

    clock.advance(60_000);
    const again = await post(COMPLETE, patient.access_token, {
      user_id: patient.user_id,
      ...profile,
      city: "Spokane",
    });
    expect(again.statusCode).toBe(200);
    expect(again.json().data).toMatchObject({ city: "Spokane", profile_completed: true });
    const me = await t.app.inject({
      method: "GET",
      url: "/api/v1/api/auth/me",
      headers: bearer(patient.access_token),
    });
    expect(me.json().data.profile_completed).toBe(true);
  });

  it("accepts a profile without the optional second address line", async () => {
    const patient = await registerPatient(t.app);
    const { address_line2: _omitted, ...required } = profile;
    const res = await post(COMPLETE, patient.access_token, { user_id: patient.user_id, ...required });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ address_line2: null, profile_completed: true });
  });

  it.each(["first_name", "date_of_birth", "phone", "address_line1", "city", "state", "zip", "gender"])(
    "answers 400 naming %s when it is missing",
    async (field) => {
      const patient = await registerPatient(t.app);
      const body: Record<string, unknown> = { user_id: patient.user_id, ...profile };
      delete body[field];
      const res = await post(COMPLETE, patient.access_token, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toContain(`"${field}"`);
      expect(res.json().code).toBe("VALIDATION_FAILED");
    },
  );

  it("answers 403 for another patient and for the service token", async () => {
    const jane = await registerPatient(t.app);
    const john = await registerPatient(t.app);
    for (const token of [jane.access_token, service]) {
      const res = await post(COMPLETE, token, { user_id: john.user_id, ...profile });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ error: AUTH_ERRORS.ownAccountOnly, code: "OWN_ACCOUNT_ONLY" });
    }
    expect((await details(john.user_id, john.access_token)).json().data.profile_completed).toBe(false);
  });

  it("answers 400 for wrong types and oversized or unknown fields", async () => {
    const patient = await registerPatient(t.app);
    for (const extra of [{ zip: 98101 }, { address_line1: "x".repeat(10_240) }, { is_admin: true }]) {
      const res = await post(COMPLETE, patient.access_token, {
        user_id: patient.user_id,
        ...profile,
        ...extra,
      });
      expect(res.statusCode).toBe(400);
    }
  });
});
