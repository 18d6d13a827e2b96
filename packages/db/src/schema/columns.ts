// Column helpers every module's tables share.
import type { TranslatedLocale } from "@ambercare/contracts/locales";
import { jsonb, timestamp } from "drizzle-orm/pg-core";

/** A row's texts in the languages other than the default: `{ "bg": { "name": "…" } }`. */
export type Translations<Fields extends string> = Partial<Record<TranslatedLocale, Record<Fields, string>>>;

export const translations = <Fields extends string>() =>
  jsonb("translations").$type<Translations<Fields>>().notNull().default({});

export const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });
