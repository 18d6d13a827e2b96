/**
 * The `tz` cookie that carries the visitor's time zone to the server's render (time-zone.server.ts),
 * and the page's first script that fills it in from the browser. Shared by the server and the page
 * (the script is rendered in the document's head).
 */
export const TIME_ZONE_COOKIE = "tz";
export const TIME_ZONE_COOKIE_MAX_AGE_S = 400 * 24 * 60 * 60;

const SET_FROM_BROWSER = `function s(){var z=Intl.DateTimeFormat().resolvedOptions().timeZone;if(z)document.cookie="${TIME_ZONE_COOKIE}="+encodeURIComponent(z)+"; Path=/; Max-Age=${TIME_ZONE_COOKIE_MAX_AGE_S}; SameSite=Lax"+(location.protocol==="https:"?"; Secure":"")}`;
const UNLESS_SET = `if(/(?:^|;\\s*)${TIME_ZONE_COOKIE}=/.test(document.cookie))return;`;

/**
 * The inline script of every page: remembers the browser's zone in the cookie unless one is set
 * (the profile's zone, once the server set it, is not overwritten by the browser's).
 *
 * Reading the browser's zone is the page's first `Intl.DateTimeFormat`, which loads the engine's
 * time-zone data: 30–80 ms of the main thread on a fast machine, four times that on the phones
 * Lighthouse stands for, before the page has painted. Only a logged-in visitor's pages show times
 * (and the login reads the cookie), so a logged-in page reads the zone at once (`now`) and any other
 * page only when one of its forms is sent (`on-submit`: the login, the sign-up), in the capture
 * phase, before the form's request is made.
 */
export function timeZoneScript(when: "now" | "on-submit"): string {
  const run =
    when === "now"
      ? "s()"
      : `addEventListener("submit",function(){try{s()}catch(e){}},{capture:true,once:true})`;
  return `(function(){try{${UNLESS_SET}${SET_FROM_BROWSER}${run}}catch(e){}})()`;
}
