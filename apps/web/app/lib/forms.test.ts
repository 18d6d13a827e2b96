import { afterEach, describe, expect, it, vi } from "vitest";
import type { z } from "zod";
import {
  CHANGE_PASSWORD_FIELDS,
  LOGIN_FIELDS,
  PROFILE_FIELDS,
  RESET_PASSWORD_FIELDS,
  SIGN_UP_FIELDS,
} from "#app/features/accounts/account-fields.ts";
import {
  changePasswordForm,
  loginForm,
  profileForm,
  resetPasswordForm,
  signUpForm,
} from "#app/features/accounts/account-forms.server.ts";
import { fieldMessage, issuesToFieldErrors } from "#app/lib/field-messages.ts";
import { type FieldErrors, type FormMessage, formError, readFields, safeValues } from "#app/lib/forms.ts";
import { createI18n, lookup } from "#app/lib/i18n.tsx";
import bg from "#app/locales/bg.json";
import en from "#app/locales/en.json";

function formData(entries: Record<string, string>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(entries)) form.append(name, value);
  return form;
}

/** Validates like an action: read the named fields, parse, map the issues. */
function validate<F extends string>(
  schema: z.ZodType,
  fields: readonly F[],
  entries: Record<string, string>,
) {
  const values = readFields(formData(entries), fields);
  const parsed = schema.safeParse(values);
  return parsed.success ? {} : issuesToFieldErrors(parsed.error.issues, values);
}

const profile = {
  first_name: "Jane",
  last_name: "Doe",
  date_of_birth: "1990-02-28",
  phone: "+1 (206) 555-0100",
  address_line1: "1 Pine St",
  address_line2: "",
  city: "Seattle",
  state: "WA",
  zip: "98101",
  gender: "Prefer Not to Answer",
};

describe("zod issues → messages in the visitor's language", () => {
  // A lone surrogate never reaches an action: FormData turns it into U+FFFD. A NUL does.
  it("refuses a NUL in typed text with its own message, keeping what was typed", () => {
    for (const typed of ["Ja\u0000ne", "\u0000"]) {
      const values = readFields(formData({ ...profile, first_name: typed }), PROFILE_FIELDS);
      const parsed = profileForm.safeParse(values);
      expect(parsed.success).toBe(false);
      const result = formError(
        values,
        parsed.success ? {} : issuesToFieldErrors(parsed.error.issues, values),
      );
      expect(result.fieldErrors).toEqual({ first_name: { key: "forms.errors.unreadableCharacters" } });
      expect(result.values.first_name).toBe(typed);
      expect(lookup(bg, "forms.errors.unreadableCharacters")).toMatch(/знаци/);
    }
  });

  it("calls every empty field of sign-up 'required', with the field's own message", () => {
    expect(validate(signUpForm, SIGN_UP_FIELDS, {})).toEqual({
      first_name: { key: "forms.errors.firstName.required" },
      last_name: { key: "forms.errors.lastName.required" },
      email: { key: "forms.errors.email.required" },
      password: { key: "forms.errors.password.required" },
      terms: { key: "forms.errors.terms.required" },
    });
  });

  it("treats whitespace as empty and keeps one message per field", () => {
    const errors = validate(loginForm, LOGIN_FIELDS, { email: "   ", password: "" });
    expect(errors).toEqual({
      email: { key: "forms.errors.email.required" },
      password: { key: "forms.errors.password.required" },
    });
  });

  it("explains a bad e-mail, a short password and a long name with the schema's limits", () => {
    const errors = validate(signUpForm, SIGN_UP_FIELDS, {
      first_name: "x".repeat(101),
      last_name: "Doe",
      email: "jane@",
      password: "short",
      terms: "on",
    });
    expect(errors).toEqual({
      first_name: { key: "forms.errors.firstName.tooLong", values: { max: 100 } },
      email: { key: "forms.errors.email.invalid" },
      password: { key: "forms.errors.password.tooShort", values: { min: 8 } },
    });
  });

  it("accepts a valid sign-up and ignores fields the form does not have", () => {
    expect(
      validate(signUpForm, SIGN_UP_FIELDS, {
        first_name: "Jane",
        last_name: "Doe",
        email: "Jane@Example.org",
        password: "long enough",
        terms: "on",
        admin: "true",
      }),
    ).toEqual({});
  });

  it("checks the profile: real date in the past, phone, US state, ZIP, the spec's genders", () => {
    expect(validate(profileForm, PROFILE_FIELDS, profile)).toEqual({});
    const errors = validate(profileForm, PROFILE_FIELDS, {
      ...profile,
      date_of_birth: "1990-02-30",
      phone: "call me",
      state: "PR",
      zip: "981",
      gender: "Male",
    });
    expect(errors).toEqual({
      date_of_birth: { key: "forms.errors.dateOfBirth.invalid" },
      phone: { key: "forms.errors.phone.invalid" },
      state: { key: "forms.errors.state.required" },
      zip: { key: "forms.errors.zip.invalid" },
      gender: { key: "forms.errors.gender.required" },
    });
    expect(validate(profileForm, PROFILE_FIELDS, { ...profile, date_of_birth: "2999-01-01" })).toEqual({
      date_of_birth: { key: "forms.errors.dateOfBirth.future" },
    });
    expect(validate(profileForm, PROFILE_FIELDS, { ...profile, state: "", gender: "" })).toEqual({
      state: { key: "forms.errors.state.required" },
      gender: { key: "forms.errors.gender.required" },
    });
  });

  it("flags a repeated password that does not match on the confirmation field", () => {
    expect(
      validate(resetPasswordForm, RESET_PASSWORD_FIELDS, {
        token: "t".repeat(32),
        new_password: "long enough",
        confirm_password: "long enougj",
      }),
    ).toEqual({ confirm_password: { key: "forms.errors.confirmPassword.mismatch" } });
    expect(
      validate(changePasswordForm, CHANGE_PASSWORD_FIELDS, {
        current_password: "",
        new_password: "long enough",
        confirm_password: "",
      }),
    ).toEqual({
      current_password: { key: "forms.errors.currentPassword.required" },
      confirm_password: { key: "forms.errors.confirmPassword.required" },
    });
  });

  it("falls back to the generic message when a field has none of its own", () => {
    expect(fieldMessage("address_line2", "tooLong", { max: 200 })).toEqual({
      key: "forms.errors.tooLong",
      values: { max: 200 },
    });
    expect(fieldMessage("nickname", "required")).toEqual({ key: "forms.errors.required" });
    expect(fieldMessage("email", "something-new")).toEqual({ key: "forms.errors.invalid" });
  });

  it("has every message it can produce in both languages", () => {
    const messages = (errors: FieldErrors) => Object.values(errors) as FormMessage[];
    const every: FormMessage[] = [
      ...messages(validate(signUpForm, SIGN_UP_FIELDS, {})),
      ...messages(validate(profileForm, PROFILE_FIELDS, {})),
      ...messages(validate(changePasswordForm, CHANGE_PASSWORD_FIELDS, {})),
      fieldMessage("email", "taken"),
      fieldMessage("password", "common"),
      fieldMessage("new_password", "hasProductName"),
    ];
    for (const message of every) {
      if (!("key" in message)) throw new Error("expected a translation key");
      expect(lookup(en, message.key), message.key).toBeTypeOf("string");
      expect(lookup(bg, message.key), message.key).toBeTypeOf("string");
    }
    const t = createI18n("bg", bg).t;
    expect(t("forms.errors.password.tooShort", { min: 8 })).toBe("Паролата трябва да има поне 8 знака.");
    expect(t("auth.errors.throttled", { count: 1 })).toContain("1 минута");
    expect(t("auth.errors.throttled", { count: 5 })).toContain("5 минути");
  });
});

describe("the profile form's birth date", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("takes today's date of a patient whose day began before UTC's, and refuses the day after", () => {
    // 23:30 UTC on 27 November is already 01:30 on the 28th in Sofia.
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2026-11-27T23:30:00Z") });
    // A baby born in Sofia at 00:45 on the 28th, entered at 01:30 there.
    expect(validate(profileForm, PROFILE_FIELDS, { ...profile, date_of_birth: "2026-11-28" })).toEqual({});
    expect(validate(profileForm, PROFILE_FIELDS, { ...profile, date_of_birth: "2026-11-29" })).toHaveProperty(
      "date_of_birth",
    );
  });
});

describe("what goes back to the page", () => {
  it("keeps what was typed but never a password or the reset token", () => {
    const values = readFields(
      formData({ email: "jane@example.org", password: "secret", token: "abc", first_name: "Jane" }),
      ["email", "password", "token", "first_name", "last_name"],
    );
    expect(values).toEqual({
      email: "jane@example.org",
      password: "secret",
      token: "abc",
      first_name: "Jane",
      last_name: "",
    });
    expect(safeValues(values)).toEqual({ email: "jane@example.org", first_name: "Jane", last_name: "" });
    expect(formError(values, {}, { key: "auth.errors.wrongCredentials" })).toEqual({
      status: "error",
      values: { email: "jane@example.org", first_name: "Jane", last_name: "" },
      fieldErrors: {},
      formError: { key: "auth.errors.wrongCredentials" },
    });
  });

  it("reads a file input as an empty string, not as the file", () => {
    const form = new FormData();
    form.append("email", new Blob(["x"]), "x.txt");
    expect(readFields(form, ["email"])).toEqual({ email: "" });
  });
});
