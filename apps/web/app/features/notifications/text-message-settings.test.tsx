import type { TextMessageStatus } from "@ambercare/contracts/notifications";
import { describe, expect, it } from "vitest";
import {
  profilePhoneOffer,
  TextMessagesSection,
} from "#app/features/notifications/text-message-settings.tsx";
import type { Locale } from "#app/lib/i18n.tsx";
import { renderInPage } from "#app/lib/render-test-support.tsx";

const saved: TextMessageStatus = {
  phone: "+13105550102",
  confirmed: true,
  code: null,
  consent: { given_at: "2026-10-01T12:00:00.000Z", wording: "I agree to reminder texts.", locale: "en" },
  opted_out: null,
  sending: true,
  receives_texts: true,
  consent_wording: "I agree to reminder texts.",
};

function section(status: TextMessageStatus | null, locale: Locale = "en", removed = false): string {
  const result = removed
    ? ({
        status: "success",
        form: "text-remove",
        message: { key: "notifications.texts.saved.removed" },
      } as const)
    : undefined;
  return renderInPage(<TextMessagesSection status={status} locale={locale} result={result} />, locale);
}

describe("the profile's text-message section", () => {
  it("is hidden when the clinic sends no texts and no number is saved", () => {
    const html = section(null);
    expect(html).not.toContain("Text messages");
    expect(html).not.toContain('role="status"');
    expect(html).not.toContain('name="intent"');
    expect(html).not.toContain('name="phone"');
  });

  it("still announces the removal of a number once the section is gone", () => {
    const html = section(null, "en", true);
    expect(html).toContain('role="status"');
    expect(html).not.toContain('name="phone"');
    expect(html).not.toContain("Text messages</h2>");
  });

  it("offers only the removal of a number saved before texts were turned off, in both languages", () => {
    const off: TextMessageStatus = { ...saved, sending: false, receives_texts: false };
    const html = section(off);
    expect(html).toContain("Text messages</h2>");
    expect(html).toContain(
      "does not send text messages at the moment. Your number +13105550102 is still saved",
    );
    expect(html).toContain('name="intent" value="text-remove"');
    expect(html).toContain(">Remove the number<");
    // Nothing that would text the number or record consent.
    for (const intent of ["text-number", "text-confirm", "text-resend", "text-consent", "text-opt-out"])
      expect(html).not.toContain(`value="${intent}"`);
    const inBulgarian = section(off, "bg");
    expect(inBulgarian).toContain(
      "В момента клиниката не изпраща текстови съобщения. Номерът Ви +13105550102",
    );
    expect(inBulgarian).toContain('value="text-remove"');
  });

  it("shows the whole section, removal included, while texts are sent", () => {
    const html = section(saved);
    expect(html).toContain('value="text-opt-out"');
    expect(html).toContain('value="text-remove"');
    expect(html).toContain('value="text-number"');
    expect(html).not.toContain("does not send text messages");
  });
});

describe("the profile's phone and the texting number", () => {
  const none: TextMessageStatus = {
    ...saved,
    phone: null,
    confirmed: false,
    consent: null,
    receives_texts: false,
  };
  const page = new URL("https://ambercare.test/my-profile/notifications");

  it("is offered, not used: a link fills the number field, which stays empty until then", () => {
    const offer = profilePhoneOffer("+1 (310) 555-0100", page);
    expect(offer).toEqual({ phone: "+1 (310) 555-0100", prefill: false });
    const html = renderInPage(
      <TextMessagesSection status={none} locale="en" result={undefined} profilePhone={offer} />,
    );
    expect(html).toContain("Use my profile phone (+1 (310) 555-0100)");
    expect(html).toContain('href="/?phone=profile#text-messages"');
    expect(html).toMatch(/name="phone"[^>]*value=""/);
    const inBulgarian = renderInPage(
      <TextMessagesSection status={none} locale="bg" result={undefined} profilePhone={offer} />,
      "bg",
    );
    expect(inBulgarian).toContain("Използвай телефона от профила ми (+1 (310) 555-0100)");
  });

  it("fills the field when asked, and says nothing is texted or agreed until the patient does it", () => {
    const offer = profilePhoneOffer("+1 (310) 555-0100", new URL(`${page.href}?phone=profile`));
    expect(offer).toEqual({ phone: "+1 (310) 555-0100", prefill: true });
    const html = renderInPage(
      <TextMessagesSection status={none} locale="en" result={undefined} profilePhone={offer} />,
    );
    expect(html).toMatch(/name="phone"[^>]*value="\+1 \(310\) 555-0100"/);
    expect(html).toContain("It is texted only when you ask for a code");
    expect(html).not.toContain("Use my profile phone");
    // The consent is its own step, never ticked for the patient.
    expect(html).not.toContain('name="agree"');
  });

  it("is not offered once a texting number is saved, nor without a profile phone", () => {
    const offer = profilePhoneOffer("+1 (310) 555-0199", page);
    const html = renderInPage(
      <TextMessagesSection status={saved} locale="en" result={undefined} profilePhone={offer} />,
    );
    expect(html).not.toContain("Use my profile phone");
    expect(html).not.toContain("555-0199");
    expect(profilePhoneOffer(null, page)).toBeNull();
    expect(profilePhoneOffer("  ", page)).toBeNull();
  });
});
