import { describe, expect, it } from "vitest";
import {
  chooseLocale,
  getTranslations,
  LANG_COOKIE_MAX_AGE_S,
  langCookie,
  parseAcceptLanguage,
  readCookie,
} from "#app/lib/locale.server.ts";

function request(path: string, headers: Record<string, string> = {}): Request {
  return new Request(`http://localhost${path}`, { headers });
}

describe("Accept-Language", () => {
  it("takes the best supported language by q-value, then by order", () => {
    expect(parseAcceptLanguage("bg-BG,bg;q=0.9,en;q=0.8")).toBe("bg");
    expect(parseAcceptLanguage("en-US,en;q=0.9,bg;q=0.8")).toBe("en");
    expect(parseAcceptLanguage("de-DE,bg;q=0.5,en;q=0.7")).toBe("en");
    expect(parseAcceptLanguage("en;q=0.2, BG;q=0.9")).toBe("bg");
  });

  it("ignores unsupported and refused languages", () => {
    expect(parseAcceptLanguage("de-DE,fr;q=0.8")).toBeNull();
    expect(parseAcceptLanguage("bg;q=0, de")).toBeNull();
    expect(parseAcceptLanguage("")).toBeNull();
    expect(parseAcceptLanguage(null)).toBeNull();
    expect(parseAcceptLanguage("*")).toBe("en");
  });
});

describe("choosing the locale", () => {
  it("uses ?lang= and remembers it in a one-year, SameSite=Lax cookie", () => {
    const choice = chooseLocale(request("/about?lang=bg"), { secure: false });
    expect(choice.locale).toBe("bg");
    expect(choice.setCookie).toBe(`lang=bg; Path=/; Max-Age=${LANG_COOKIE_MAX_AGE_S}; SameSite=Lax`);
    expect(LANG_COOKIE_MAX_AGE_S).toBe(31_536_000);
  });

  it("lets ?lang= win over the cookie and Accept-Language, and changes the cookie", () => {
    const choice = chooseLocale(request("/?lang=en", { Cookie: "lang=bg", "Accept-Language": "bg" }), {
      secure: true,
    });
    expect(choice).toEqual({ locale: "en", setCookie: langCookie("en", { secure: true }) });
    expect(choice.setCookie).toContain("; Secure");
  });

  it("does not set the cookie again when ?lang= repeats the remembered language", () => {
    expect(chooseLocale(request("/?lang=bg", { Cookie: "lang=bg" }), { secure: false })).toEqual({
      locale: "bg",
      setCookie: null,
    });
  });

  it("uses the remembered language over Accept-Language", () => {
    const choice = chooseLocale(request("/", { Cookie: "a=1; lang=bg", "Accept-Language": "en" }), {
      secure: false,
    });
    expect(choice).toEqual({ locale: "bg", setCookie: null });
  });

  it("lets Accept-Language decide on a first visit, and falls back to en", () => {
    expect(
      chooseLocale(request("/", { "Accept-Language": "bg-BG,bg;q=0.9" }), { secure: false }).locale,
    ).toBe("bg");
    expect(chooseLocale(request("/", { "Accept-Language": "de" }), { secure: false }).locale).toBe("en");
    expect(chooseLocale(request("/"), { secure: false }).locale).toBe("en");
  });

  it("ignores unsupported values of ?lang= and of the cookie", () => {
    const choice = chooseLocale(request("/?lang=xx", { Cookie: "lang=zz", "Accept-Language": "bg" }), {
      secure: false,
    });
    expect(choice).toEqual({ locale: "bg", setCookie: null });
  });

  it("returns each language's own strings", () => {
    expect(getTranslations("bg").nav.findADoctor).toBe("Намерете лекар");
    expect(getTranslations("en").nav.findADoctor).toBe("Find a doctor");
  });

  it("reads cookies by exact name", () => {
    expect(readCookie("xlang=bg; lang=en", "lang")).toBe("en");
    expect(readCookie("lang=%D0%B1", "lang")).toBe("б");
    expect(readCookie(null, "lang")).toBeUndefined();
  });
});
