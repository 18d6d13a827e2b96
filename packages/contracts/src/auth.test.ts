import { describe, expect, it } from "vitest";
import {
  completeProfileRequest,
  emailSchema,
  loginRequest,
  registerRequest,
  updateUserRequest,
} from "./auth.ts";

const userId = "7d9c3a2e-4f1b-4c8a-9e2d-1a2b3c4d5e6f";

describe("account schemas", () => {
  it("normalises e-mail addresses", () => {
    expect(emailSchema.parse("  Jane.Doe@Example.ORG ")).toBe("jane.doe@example.org");
    expect(emailSchema.safeParse("not-an-email").success).toBe(false);
    expect(emailSchema.safeParse(`${"a".repeat(250)}@example.org`).success).toBe(false);
  });

  it("refuses unknown fields and short passwords", () => {
    expect(loginRequest.safeParse({ email: "a@b.co", password: "x", admin: true }).success).toBe(false);
    expect(
      registerRequest.safeParse({ email: "a@b.co", password: "short", first_name: "A", last_name: "B" })
        .success,
    ).toBe(false);
    expect(
      registerRequest.safeParse({ email: "a@b.co", password: "long enough", first_name: "A", last_name: "B" })
        .success,
    ).toBe(true);
  });

  it("accepts only real dates, US states and the spec's genders in a profile", () => {
    const profile = {
      user_id: userId,
      first_name: "Jane",
      last_name: "Doe",
      date_of_birth: "1990-02-28",
      phone: "+1 (206) 555-0100",
      address_line1: "1 Pine St",
      city: "Seattle",
      state: "WA",
      zip: "98101",
      gender: "Prefer Not to Answer",
    };
    expect(completeProfileRequest.safeParse(profile).success).toBe(true);
    expect(completeProfileRequest.safeParse({ ...profile, date_of_birth: "1990-02-30" }).success).toBe(false);
    expect(completeProfileRequest.safeParse({ ...profile, state: "PR" }).success).toBe(false);
    expect(completeProfileRequest.safeParse({ ...profile, gender: "Male" }).success).toBe(false);
    expect(updateUserRequest.safeParse({ user_id: userId, phone: "206 555 0100" }).success).toBe(true);
    expect(updateUserRequest.safeParse({ phone: "206 555 0100" }).success).toBe(false);
  });
});
