/**
 * Length limits of account fields, with no dependency: browser code (form inputs' minLength and
 * maxLength) imports them without pulling zod into the page's JavaScript. auth.ts builds its schemas
 * from the same numbers.
 */
export const PASSWORD_MIN_LENGTH = 8;
/** Long enough for passphrases; short enough that hashing cannot be used to burn CPU. */
export const PASSWORD_MAX_LENGTH = 128;
export const NAME_MAX_LENGTH = 100;
export const ADDRESS_LINE_MAX_LENGTH = 200;
export const CITY_MAX_LENGTH = 100;
/** RFC 5321's limit on a forward path, in practice the longest address a mailbox can have. */
export const EMAIL_MAX_LENGTH = 254;
