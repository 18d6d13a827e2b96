import zoneTab from "#app/lib/time-zone-countries.json";

/**
 * The country of each time zone, from the tz database's zone.tab (version 2025b, public domain), in
 * its order: a country's principal zone comes first. Then the older names some JavaScript engines
 * still list (Asia/Calcutta for Asia/Kolkata). Generated from /usr/share/zoneinfo/zone.tab; used to
 * name zones by their country in the page's language (time-zone-options.ts).
 */
export const ZONE_COUNTRIES: ReadonlyMap<string, string> = new Map(Object.entries(zoneTab));
