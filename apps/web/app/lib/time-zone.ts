/**
 * The `tz` cookie that carries the visitor's time zone to the server's render (time-zone.server.ts),
 * and the page's first script that fills it in from the browser. Shared by the server and the page
 * (the script is rendered in the document's head).
 */
export const TIME_ZONE_COOKIE = "tz";
export const TIME_ZONE_COOKIE_MAX_AGE_S = 400 * 24 * 60 * 60;

/**
 * The inline script of every page: remembers the browser's zone in the cookie unless one is set
 * (the profile's zone, once the server set it, is not overwritten by the browser's).
 */
export const TIME_ZONE_SCRIPT = `(function(){try{if(/(?:^|;\\s*)${TIME_ZONE_COOKIE}=/.test(document.cookie))return;var z=Intl.DateTimeFormat().resolvedOptions().timeZone;if(z)document.cookie="${TIME_ZONE_COOKIE}="+encodeURIComponent(z)+"; Path=/; Max-Age=${TIME_ZONE_COOKIE_MAX_AGE_S}; SameSite=Lax"+(location.protocol==="https:"?"; Secure":"")}catch(e){}})()`;
