import { intlTag, type Locale } from "@ambercare/contracts/locales";
import { FALLBACK_TIME_ZONE, isTimeZone } from "@ambercare/contracts/time-zone";
import { ZONE_COUNTRIES } from "#app/lib/time-zone-countries.ts";

/** A zone of the list; `likely` ones come first, in a group of their own. */
export type TimeZoneOption = { value: string; label: string; likely?: true };

/**
 * The zones a patient of this service most likely lives in, after their own: visits are with
 * clinicians licensed in a US state, so the US's main zones (east to west), then UTC.
 */
const LIKELY_ZONES = Object.freeze([
  FALLBACK_TIME_ZONE,
  "America/New_York",
  "America/Chicago",
  "America/Denver",
  "America/Phoenix",
  "America/Los_Angeles",
  "America/Anchorage",
  "Pacific/Honolulu",
]);

// The list is the same for every patient of a language until an offset changes: built once an hour
// for each language (one slot per language, so visitors of both languages do not rebuild it in turn).
const optionsCache = new Map<Locale, { hour: number; options: TimeZoneOption[] }>();

/**
 * The zones a patient can choose, named in the page's language by the engine's own data (Intl):
 * the country, the zone's name and its offset now ("България — Източноевропейско време
 * (Гринуич+02:00)"). The patient's zone and the likely ones come first; the rest follow in the
 * language's alphabetical order. Zones that read the same and keep the same offsets all year are
 * one entry (the country's principal zone of the tz database). Built where the page renders: by the
 * server for the HTML (kept once an hour per language), and by the browser only when it renders the
 * field itself (a page reached by a link, the field after a save): a page the server sent hydrates
 * with the options of its HTML (TimeZoneField), so the list is sent once, not also as route data.
 * `current` is kept in the list even when this engine lists it under another name (Asia/Kolkata,
 * Asia/Calcutta).
 */
export function timeZoneOptions(locale: Locale, now: Date, current?: string | null): TimeZoneOption[] {
  const hour = Math.floor(now.getTime() / 3_600_000);
  let cached = optionsCache.get(locale);
  if (cached?.hour !== hour) {
    cached = { hour, options: buildOptions(locale, now) };
    optionsCache.set(locale, cached);
  }
  const { options } = cached;
  if (!isTimeZone(current)) return options;
  const own = options.find((option) => option.value === current) ?? {
    value: current,
    label: timeZoneLabel(current, locale, now),
  };
  return [{ ...own, likely: true }, ...options.filter((option) => option.value !== current)];
}

function buildOptions(locale: Locale, now: Date): TimeZoneOption[] {
  const order = new Map([...ZONE_COUNTRIES.keys()].map((zone, index) => [zone, index]));
  const rank = (zone: string) => {
    const likely = LIKELY_ZONES.indexOf(zone);
    return likely >= 0 ? likely - LIKELY_ZONES.length : (order.get(zone) ?? order.size);
  };
  const zones = [...new Set([FALLBACK_TIME_ZONE, ...Intl.supportedValuesOf("timeZone")])].sort(
    (a, b) => rank(a) - rank(b),
  );
  const year = now.getUTCFullYear();
  const seasons = [new Date(Date.UTC(year, 0, 15)), new Date(Date.UTC(year, 6, 15))];
  const regions = new Intl.DisplayNames(intlTag(locale), { type: "region" });
  const seen = new Set<string>();
  const likely: TimeZoneOption[] = [];
  const rest: TimeZoneOption[] = [];
  for (const zone of zones) {
    const offsets = zoneNamer(zone, locale, "longOffset");
    const label = timeZoneLabel(zone, locale, now, offsets, regions);
    const same = [label, ...seasons.map(offsets)].join("|");
    if (seen.has(same)) continue;
    seen.add(same);
    if (LIKELY_ZONES.includes(zone)) likely.push({ value: zone, label, likely: true });
    else rest.push({ value: zone, label });
  }
  const collator = new Intl.Collator(intlTag(locale));
  return [...likely, ...rest.sort((a, b) => collator.compare(a.label, b.label))];
}

/**
 * The formatters the list is built with, kept across builds: making one is most of a build's cost
 * (a few thousand of them, a second of a core), naming a zone with it is not, and a formatter does
 * not change with the hour. Bounded by the engine's zones × languages × styles.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

/** A zone's name in the engine's data at a given time: "longGeneric", "longOffset" or "long". */
function zoneNamer(zone: string, locale: Locale, style: "longGeneric" | "longOffset" | "long") {
  const key = `${locale}|${zone}|${style}`;
  let format = formatters.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(intlTag(locale), { timeZone: zone, timeZoneName: style });
    formatters.set(key, format);
  }
  const named = format;
  return (at: Date) => named.formatToParts(at).find((part) => part.type === "timeZoneName")?.value ?? "";
}

function timeZoneLabel(
  zone: string,
  locale: Locale,
  now: Date,
  offsets = zoneNamer(zone, locale, "longOffset"),
  regions = new Intl.DisplayNames(intlTag(locale), { type: "region" }),
): string {
  const offset = offsets(now);
  let name = zoneNamer(zone, locale, "longGeneric")(now);
  // UTC and zones without a name of their own have only their offset there: say what they are.
  if (name === "" || name === offset) name = zoneNamer(zone, locale, "long")(now);
  const country = ZONE_COUNTRIES.get(zone);
  const region = country ? regions.of(country) : undefined;
  const named = region && region !== country ? `${region} — ${name}` : name;
  return name === offset || name === "" ? offset || zone : `${named} (${offset})`;
}
