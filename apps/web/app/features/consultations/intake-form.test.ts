import { describe, expect, it } from "vitest";
import { genderForPatient } from "#app/features/consultations/intake-form.ts";

describe("the intake's gender when who the visit is for changes", () => {
  it("leaves the account holder's gender out of a visit for someone they care for, and brings it back", () => {
    expect(genderForPatient("dependent", "female", "female")).toBe("");
    expect(genderForPatient("self", "", "female")).toBe("female");
  });

  it("never touches a gender the patient chose, nor works without a profile gender", () => {
    expect(genderForPatient("dependent", "male", "female")).toBe("male");
    expect(genderForPatient("self", "male", "female")).toBe("male");
    expect(genderForPatient("dependent", "male", null)).toBe("male");
    expect(genderForPatient("self", "", null)).toBe("");
  });
});
