import type { ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import {
  CheckboxField,
  ErrorSummary,
  PasswordField,
  SelectField,
  StatusMessage,
  TextField,
} from "#app/components/forms.tsx";
import { TimeZoneSelect } from "#app/components/time-zone-select.tsx";
import { formError } from "#app/lib/forms.ts";
import { createI18n, I18nProvider, type Locale } from "#app/lib/i18n.tsx";
import bg from "#app/locales/bg.json";
import en from "#app/locales/en.json";

function render(node: ReactNode, locale: Locale = "en"): string {
  return renderToString(
    <I18nProvider i18n={createI18n(locale, locale === "en" ? en : bg)}>{node}</I18nProvider>,
  ).replace(/<!-- -->/g, "");
}

describe("form controls", () => {
  it("label their input and tie the hint and the error to it", () => {
    const html = render(
      <TextField
        formId="sign-up"
        name="first_name"
        label="First name"
        hint="As on your ID."
        autoComplete="given-name"
        defaultValue="Ja"
        error={{ key: "forms.errors.firstName.required" }}
      />,
    );
    expect(html).toContain('<label for="sign-up-first-name"');
    expect(html).toMatch(/<input[^>]*id="sign-up-first-name"[^>]*>/);
    const input = /<input[^>]*>/.exec(html)?.[0] ?? "";
    expect(input).toContain('aria-invalid="true"');
    expect(input).toContain('aria-describedby="sign-up-first-name-hint sign-up-first-name-error"');
    expect(input).toContain('autoComplete="given-name"');
    expect(input).toContain('value="Ja"');
    expect(html).toContain('id="sign-up-first-name-error"');
    expect(html).toContain("Enter your first name.");
  });

  it("leave a valid control unmarked", () => {
    const input = /<input[^>]*>/.exec(render(<TextField formId="f" name="city" label="City" />))?.[0] ?? "";
    expect(input).not.toContain("aria-invalid");
    expect(input).not.toContain("aria-describedby");
    expect(input).toContain("required");
  });

  it("render a password input without its Show button until JavaScript runs", () => {
    const html = render(<PasswordField formId="login" name="password" label="Password" />);
    expect(html).toContain('type="password"');
    expect(html).not.toContain("<button");
  });

  it("offer a placeholder option first in a select and mark optional fields", () => {
    const html = render(
      <SelectField
        formId="p"
        name="state"
        label="State"
        optional
        options={[{ value: "WA", label: "Washington" }]}
        defaultValue="WA"
      />,
      "bg",
    );
    expect(html).toMatch(/<option value="">Изберете…<\/option><option value="WA" selected="">Washington/);
    expect(html).toContain("(по избор)");
    expect(html).not.toContain("required");
  });

  it("put a checkbox's error above it and keep links inside its label", () => {
    const html = render(
      <CheckboxField
        formId="sign-up"
        name="terms"
        label={<a href="/terms-of-use">Terms</a>}
        error={{ key: "forms.errors.terms.required" }}
      />,
    );
    expect(html.indexOf("sign-up-terms-error")).toBeLessThan(html.indexOf('type="checkbox"'));
    expect(html).toMatch(/<label for="sign-up-terms"[^>]*><a href="\/terms-of-use">Terms<\/a><\/label>/);
  });
});

describe("ErrorSummary", () => {
  it("announces every error, links each to its field in form order, and takes focus", () => {
    const result = formError(
      { email: "jane@", password: "x", first_name: "" },
      {
        password: { key: "forms.errors.password.tooShort", values: { min: 8 } },
        email: { key: "forms.errors.email.invalid" },
      },
      { key: "auth.errors.throttled", values: { count: 2 } },
    );
    const html = render(
      <ErrorSummary formId="sign-up" result={result} order={["first_name", "email", "password"] as const} />,
    );
    expect(html).toMatch(/<div role="alert" tabindex="-1" autofocus=""/);
    expect(html).toContain("There is a problem");
    expect(html).toContain("Too many attempts. Please try again in 2 minutes.");
    const links = [...html.matchAll(/<a href="#([^"]+)"[^>]*>([^<]+)<\/a>/g)].map((m) => [m[1], m[2]]);
    expect(links).toEqual([
      ["sign-up-email", "Enter an e-mail address in the form name@example.com."],
      ["sign-up-password", "Your password must have at least 8 characters."],
    ]);
  });

  it("shows nothing without errors, and shows the API's text only when it is all there is", () => {
    expect(render(<ErrorSummary formId="f" result={undefined} order={["email"] as const} />)).toBe("");
    const html = render(
      <ErrorSummary
        formId="f"
        result={formError({ email: "" }, {}, { text: "Odd API answer" })}
        order={["email"]}
      />,
    );
    expect(html).toContain("Odd API answer");
  });
});

describe("StatusMessage", () => {
  it("is a polite live region, present even when empty", () => {
    expect(render(<StatusMessage message={undefined} />)).toBe('<div role="status"></div>');
    expect(render(<StatusMessage message={{ key: "profile.saved" }} />, "bg")).toContain(
      "Профилът ви е запазен.",
    );
  });
});

const count = (html: string, text: string) => html.split(text).length - 1;

describe("the time zone select", () => {
  it("lists every zone once on the server, the current one first, under the groups it is given", () => {
    const html = render(
      <TimeZoneSelect
        formId="profile"
        name="time_zone"
        label="Time zone"
        hint="Times are shown in this zone."
        optional
        groups={{ likely: "Likely for you", all: "All time zones" }}
        current="Europe/Sofia"
        defaultValue="Europe/Sofia"
        error={undefined}
      />,
    );
    expect(html).toContain('<label for="profile-time-zone"');
    expect(html).not.toMatch(/<select[^>]*required/);
    expect(html).toMatch(/<optgroup label="Likely for you"><option value="Europe\/Sofia"/);
    expect(count(html, "<optgroup")).toBe(2);
    expect(count(html, 'value="Africa/Abidjan"')).toBe(1);
    expect(count(html, "<option")).toBeGreaterThan(300);
  });

  it("is a required field without groups in Bulgarian, with the zones named in Bulgarian", () => {
    const zone = "America/Chicago";
    const error = { key: "forms.errors.timeZone.invalid" } as const;
    const props = { formId: "hours", name: "time_zone", current: zone, defaultValue: zone, error };
    const html = render(<TimeZoneSelect label="Часова зона" {...props} />, "bg");
    expect(html).toMatch(/<select[^>]*id="hours-time-zone"[^>]*required/);
    expect(html).toMatch(/<select[^>]*aria-invalid="true"/);
    expect(html).not.toContain("<optgroup");
    expect(html).toMatch(/<option value="">Изберете…<\/option><option value="America\/Chicago"/);
    expect(html).toContain("България — Източноевропейско време");
  });
});
