-- The directory's Bulgarian texts move from one *_bg column per field into one translations document
-- per row, { "bg": { "name": …, … } }; English stays in the base columns as the default language.
ALTER TABLE "specializations" ADD COLUMN "translations" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "conditions" ADD COLUMN "translations" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "providers" ADD COLUMN "translations" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
UPDATE "specializations" SET "translations" = jsonb_strip_nulls(jsonb_build_object('bg', jsonb_build_object('name', "name_bg", 'description', "description_bg")));--> statement-breakpoint
UPDATE "conditions" SET "translations" = jsonb_strip_nulls(jsonb_build_object('bg', jsonb_build_object('name', "name_bg")));--> statement-breakpoint
UPDATE "providers" SET "translations" = jsonb_strip_nulls(jsonb_build_object('bg', jsonb_build_object('bio', "bio_bg")));--> statement-breakpoint
ALTER TABLE "specializations" DROP COLUMN "name_bg";--> statement-breakpoint
ALTER TABLE "specializations" DROP COLUMN "description_bg";--> statement-breakpoint
ALTER TABLE "conditions" DROP COLUMN "name_bg";--> statement-breakpoint
ALTER TABLE "providers" DROP COLUMN "bio_bg";
