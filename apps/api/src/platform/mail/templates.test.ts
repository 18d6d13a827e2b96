import { describe, expect, it } from "vitest";
import { escapeHtml, type MailTemplate, renderMail } from "#api/platform/mail/templates.ts";

const link = "https://care.example.org/reset-password?token=abc_DEF-123";
const cyrillic = /[\u0400-\u04FF]/;

describe("renderMail", () => {
  it.each([
    ["password-reset", "en", "Reset your Ambercare password"],
    ["password-reset", "bg", "Смяна на паролата за Ambercare"],
    ["password-changed", "en", "Your Ambercare password was changed"],
    ["password-changed", "bg", "Паролата Ви за Ambercare е сменена"],
    ["welcome", "en", "Welcome to Ambercare"],
    ["welcome", "bg", "Добре дошли в Ambercare"],
    ["second-factor-reset", "en", "Turn off two-step login for Ambercare"],
    ["second-factor-reset", "bg", "Изключване на влизането в две стъпки за Ambercare"],
    ["second-factor-off", "en", "Two-step login was turned off for Ambercare"],
    ["second-factor-off", "bg", "Влизането в две стъпки за Ambercare е изключено"],
    ["clinician-invite", "en", "Your Ambercare care team account"],
    ["clinician-invite", "bg", "Вашият профил в медицинския екип на Ambercare"],
  ] as const)("%s in %s: subject, text and HTML with the link", (template, locale, subject) => {
    const mail = renderMail(template as MailTemplate, locale, {
      productName: "Ambercare",
      firstName: "Ana",
      link,
    });
    expect(mail.subject).toBe(subject);
    expect(mail.text).toContain(`\n${link}\n`);
    expect(mail.html).toContain(`<html lang="${locale}">`);
    expect(mail.html).toContain(`<title>${subject}</title>`);
    expect(mail.html).toContain(`href="${link}"`);
    expect(mail.html).not.toMatch(/<img|<script/);
    if (locale === "bg") {
      expect(mail.text).toMatch(cyrillic);
      expect(mail.text.replace(link, "")).not.toMatch(/Hello|password|Welcome/);
    } else {
      expect(mail.text).not.toMatch(cyrillic);
    }
  });

  it("says when the reset link expires and that it works once", () => {
    const en = renderMail("password-reset", "en", { productName: "Ambercare", firstName: null, link });
    expect(en.text).toMatch(/^Hello,/);
    expect(en.text).toContain("within 1 hour");
    expect(en.text).toContain("only once");
    const bg = renderMail("password-reset", "bg", { productName: "Ambercare", firstName: null, link });
    expect(bg.text).toMatch(/^Здравейте,/);
    expect(bg.text).toContain("1 час");
  });

  it("escapes a name in the HTML part", () => {
    const mail = renderMail("welcome", "en", {
      productName: "Ambercare",
      firstName: '<b onclick="x">Eve</b>',
      link,
    });
    expect(mail.html).toContain("&lt;b onclick=&quot;x&quot;&gt;Eve&lt;/b&gt;");
    expect(mail.html).not.toContain("<b onclick");
    expect(escapeHtml(`&<>"'`)).toBe("&amp;&lt;&gt;&quot;&#39;");
  });
});
