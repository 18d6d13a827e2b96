import { readFileSync } from "node:fs";
import { THEME_COLORS, VIEWPORT_BREAKPOINTS } from "@ambercare/contracts/theme";
import { describe, expect, it } from "vitest";

const css = readFileSync(new URL("./app.css", import.meta.url), "utf8");

function variable(name: string): string {
  const match = css.match(new RegExp(`--${name}:\\s*([^;]+);`));
  if (!match?.[1]) throw new Error(`--${name} is not defined in app.css`);
  return match[1].trim();
}

function luminance(hex: string): number {
  const value = hex.replace("#", "");
  const channels = [0, 2, 4].map((i) => Number.parseInt(value.slice(i, i + 2), 16) / 255);
  const [r = 0, g = 0, b = 0] = channels.map((c) =>
    c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4,
  );
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: string, b: string): number {
  const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (high + 0.05) / (low + 0.05);
}

describe("the theme in app.css", () => {
  it("uses the contract's colours", () => {
    expect(variable("color-primary").toLowerCase()).toBe(THEME_COLORS.primary.toLowerCase());
    expect(variable("color-secondary").toLowerCase()).toBe(THEME_COLORS.secondary.toLowerCase());
    expect(variable("color-tertiary").toLowerCase()).toBe(THEME_COLORS.tertiary.toLowerCase());
    expect(variable("color-primary-ink").toLowerCase()).toBe(THEME_COLORS.primaryInk.toLowerCase());
  });

  it("has the spec's breakpoints as screens (320 px is the base)", () => {
    const screens = {
      "mobile-m": VIEWPORT_BREAKPOINTS.mobileM,
      "mobile-l": VIEWPORT_BREAKPOINTS.mobileL,
      tablet: VIEWPORT_BREAKPOINTS.tablet,
      laptop: VIEWPORT_BREAKPOINTS.laptop,
      desktop: VIEWPORT_BREAKPOINTS.desktop,
      "desktop-l": VIEWPORT_BREAKPOINTS.desktopL,
    };
    for (const [name, px] of Object.entries(screens)) expect(variable(`breakpoint-${name}`)).toBe(`${px}px`);
    expect(css).toContain(`min-width: ${VIEWPORT_BREAKPOINTS.mobileS}px`);
  });

  it("fails white text on the primary orange, which is why it carries dark text", () => {
    expect(contrast("#ffffff", THEME_COLORS.primary)).toBeLessThan(4.5);
  });

  // Every text/background pair the components use: WCAG AA needs 4.5:1 for normal text.
  it.each([
    ["ink", "surface"],
    ["ink", "surface-muted"],
    ["ink-muted", "surface"],
    ["ink-muted", "surface-muted"],
    ["primary-ink", "surface"],
    ["primary-ink", "surface-muted"],
    ["on-primary", "primary"],
    ["on-primary", "primary-hover"],
    ["on-secondary", "secondary"],
    ["on-tertiary", "tertiary"],
    ["tertiary-ink", "surface"],
    ["surface", "ink"],
  ])("gives %s text on %s at least 4.5:1", (text, background) => {
    expect(contrast(variable(`color-${text}`), variable(`color-${background}`))).toBeGreaterThanOrEqual(4.5);
  });

  // Non-text contrast (WCAG 1.4.11): focus ring and the progress bar need 3:1 against the page.
  it.each([
    ["focus", "surface"],
    ["focus", "primary"],
    ["focus", "surface-muted"],
    ["tertiary", "surface"],
  ])("gives the %s indicator 3:1 against %s", (indicator, background) => {
    expect(contrast(variable(`color-${indicator}`), variable(`color-${background}`))).toBeGreaterThanOrEqual(
      3,
    );
  });
});
