import { describe, expect, it } from "vitest";
import {
  contactAcknowledgement,
  contactNotification,
  dataDeletion,
  listConfirmation,
  listWelcome,
} from "#api/modules/communications/communication-mail.ts";

const cyrillic = /[\u0400-\u04FF]/;
const link = "https://care.example.org/x?token=abc";

describe("communication e-mails", () => {
  const both = (locale: "en" | "bg") => [
    contactAcknowledgement(locale, { productName: "Ambercare", name: "Ana", topic: "privacy", link }),
    listConfirmation(locale, { productName: "Ambercare", link }),
    listWelcome(locale, { productName: "Ambercare", link, unsubscribeLink: `${link}&u=1` }),
    dataDeletion(locale, { productName: "Ambercare", firstName: null, link }),
  ];

  it.each(["en", "bg"] as const)("in %s: subject, plain text with the link, HTML with lang", (locale) => {
    for (const mail of both(locale)) {
      expect(mail.subject).toContain("Ambercare");
      expect(mail.text).toContain(`\n${link}`);
      expect(mail.html).toContain(`<html lang="${locale}">`);
      expect(mail.html).toContain(`href="${link.replace("&", "&amp;")}"`);
      expect(mail.html).not.toMatch(/<img|<script/);
      if (locale === "bg") expect(mail.text.replaceAll(link, "")).toMatch(cyrillic);
      else expect(mail.text).not.toMatch(cyrillic);
    }
  });

  it("puts the unsubscribe link in the marketing mail's footer, text and HTML", () => {
    const mail = listWelcome("en", {
      productName: "Ambercare",
      link,
      unsubscribeLink: "https://s/unsubscribe?token=t",
    });
    expect(mail.text).toMatch(/--\nYou receive this e-mail because .*\nhttps:\/\/s\/unsubscribe\?token=t\n$/);
    expect(mail.html).toContain(
      '<a href="https://s/unsubscribe?token=t" style="color:#92400e">Unsubscribe</a>',
    );
  });

  it("escapes what a visitor typed in the support team's HTML, and keeps names out of the subject", () => {
    const mail = contactNotification({
      productName: "Ambercare",
      entryId: "id-1",
      name: '<b onclick="x">Eve</b>',
      email: "eve@example.org",
      topic: "general",
      segment: "patient",
      source: "widget",
      userId: null,
      message: "<script>alert(1)</script>",
    });
    expect(mail.subject).toBe("[Ambercare patient] General question (support widget)");
    expect(mail.html).not.toContain("<script>alert");
    expect(mail.html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(mail.html).not.toContain("<b onclick");
    expect(mail.text).toContain("<script>alert(1)</script>");
  });
});
