-- Booked visits (docs/decisions/059-booked-visits.md): clinicians' hours, exceptions and the
-- bookings of their time. btree_gist lets one exclusion constraint compare the clinician (=) and the
-- time range (&&): PostgreSQL itself refuses a second held or booked row overlapping another of the
-- same clinician (PGlite loads the extension's files where the database is opened, client.ts).
CREATE EXTENSION IF NOT EXISTS btree_gist;--> statement-breakpoint
CREATE TABLE "bookings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"consultation_id" uuid,
	"patient_user_id" uuid NOT NULL,
	"clinician_user_id" uuid NOT NULL,
	"provider_id" uuid NOT NULL,
	"type" text NOT NULL,
	"state" text NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"status" text NOT NULL,
	"hold_expires_at" timestamp with time zone,
	"sequence" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bookings_status_known" CHECK ("bookings"."status" in ('held', 'booked', 'released', 'moved', 'canceled')),
	CONSTRAINT "bookings_type_known" CHECK ("bookings"."type" in ('chat', 'video')),
	CONSTRAINT "bookings_range" CHECK ("bookings"."starts_at" < "bookings"."ends_at"),
	CONSTRAINT "bookings_state_code" CHECK ("bookings"."state" ~ '^[A-Z]{2}$'),
	CONSTRAINT "bookings_hold_expiry" CHECK ("bookings"."status" <> 'held' or "bookings"."hold_expires_at" is not null),
	CONSTRAINT "bookings_booked_consultation" CHECK ("bookings"."status" <> 'booked' or "bookings"."consultation_id" is not null)
);
--> statement-breakpoint
CREATE TABLE "clinician_hour_exceptions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"clinician_user_id" uuid NOT NULL,
	"on_date" date NOT NULL,
	"kind" text NOT NULL,
	"start_minute" integer,
	"end_minute" integer,
	"visit_types" text[] DEFAULT array['chat', 'video']::text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "clinician_hour_exceptions_kind_known" CHECK ("clinician_hour_exceptions"."kind" in ('off', 'extra')),
	CONSTRAINT "clinician_hour_exceptions_range" CHECK (("clinician_hour_exceptions"."start_minute" is null and "clinician_hour_exceptions"."end_minute" is null and "clinician_hour_exceptions"."kind" = 'off')
        or (0 <= "clinician_hour_exceptions"."start_minute" and "clinician_hour_exceptions"."start_minute" < "clinician_hour_exceptions"."end_minute" and "clinician_hour_exceptions"."end_minute" <= 1440))
);
--> statement-breakpoint
CREATE TABLE "clinician_schedules" (
	"clinician_user_id" uuid PRIMARY KEY NOT NULL,
	"time_zone" text NOT NULL,
	"min_notice_minutes" integer DEFAULT 60 NOT NULL,
	"horizon_days" integer DEFAULT 14 NOT NULL,
	"slot_minutes" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "clinician_schedules_min_notice_range" CHECK ("clinician_schedules"."min_notice_minutes" between 0 and 10080),
	CONSTRAINT "clinician_schedules_horizon_range" CHECK ("clinician_schedules"."horizon_days" between 1 and 90)
);
--> statement-breakpoint
CREATE TABLE "clinician_weekly_hours" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "clinician_weekly_hours_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"clinician_user_id" uuid NOT NULL,
	"weekday" integer NOT NULL,
	"start_minute" integer NOT NULL,
	"end_minute" integer NOT NULL,
	"visit_types" text[] NOT NULL,
	CONSTRAINT "clinician_weekly_hours_weekday_range" CHECK ("clinician_weekly_hours"."weekday" between 1 and 7),
	CONSTRAINT "clinician_weekly_hours_minutes_range" CHECK (0 <= "clinician_weekly_hours"."start_minute" and "clinician_weekly_hours"."start_minute" < "clinician_weekly_hours"."end_minute" and "clinician_weekly_hours"."end_minute" <= 1440),
	CONSTRAINT "clinician_weekly_hours_visit_types_known" CHECK ("clinician_weekly_hours"."visit_types" <@ array['chat', 'video']::text[] and cardinality("clinician_weekly_hours"."visit_types") > 0)
);
--> statement-breakpoint
ALTER TABLE "consultations" DROP CONSTRAINT "consultations_status_known";--> statement-breakpoint
ALTER TABLE "consultations" ADD COLUMN "scheduled_start" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "consultations" ADD COLUMN "checked_in_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "consultations" ADD COLUMN "missed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_consultation_id_consultations_id_fk" FOREIGN KEY ("consultation_id") REFERENCES "public"."consultations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_patient_user_id_users_id_fk" FOREIGN KEY ("patient_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_clinician_user_id_clinicians_user_id_fk" FOREIGN KEY ("clinician_user_id") REFERENCES "public"."clinicians"("user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "clinician_hour_exceptions" ADD CONSTRAINT "clinician_hour_exceptions_clinician_user_id_clinicians_user_id_fk" FOREIGN KEY ("clinician_user_id") REFERENCES "public"."clinicians"("user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "clinician_schedules" ADD CONSTRAINT "clinician_schedules_clinician_user_id_clinicians_user_id_fk" FOREIGN KEY ("clinician_user_id") REFERENCES "public"."clinicians"("user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "clinician_weekly_hours" ADD CONSTRAINT "clinician_weekly_hours_clinician_user_id_clinicians_user_id_fk" FOREIGN KEY ("clinician_user_id") REFERENCES "public"."clinicians"("user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bookings_clinician_starts_idx" ON "bookings" USING btree ("clinician_user_id","starts_at");--> statement-breakpoint
CREATE INDEX "bookings_consultation_idx" ON "bookings" USING btree ("consultation_id");--> statement-breakpoint
CREATE INDEX "bookings_patient_idx" ON "bookings" USING btree ("patient_user_id","status");--> statement-breakpoint
CREATE INDEX "clinician_hour_exceptions_clinician_idx" ON "clinician_hour_exceptions" USING btree ("clinician_user_id","on_date");--> statement-breakpoint
CREATE INDEX "clinician_weekly_hours_clinician_idx" ON "clinician_weekly_hours" USING btree ("clinician_user_id","weekday");--> statement-breakpoint
ALTER TABLE "consultations" ADD CONSTRAINT "consultations_missed_at_set" CHECK (("consultations"."status" = 'missed') = ("consultations"."missed_at" is not null));--> statement-breakpoint
ALTER TABLE "consultations" ADD CONSTRAINT "consultations_scheduled_has_start" CHECK ("consultations"."status" <> 'scheduled' or "consultations"."scheduled_start" is not null);--> statement-breakpoint
ALTER TABLE "consultations" ADD CONSTRAINT "consultations_status_known" CHECK ("consultations"."status" in ('requested', 'accepted', 'in_progress', 'completed', 'canceled', 'expired', 'scheduled', 'missed'));--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_no_overlap" EXCLUDE USING gist ("clinician_user_id" WITH =, tstzrange("starts_at", "ends_at", '[)') WITH &&) WHERE ("status" in ('held', 'booked'));--> statement-breakpoint
-- A booked visit that is canceled (by the patient, the clinician or the system) or expires gives its
-- time back in the same transaction, whichever code path changed its status.
CREATE FUNCTION "bookings_release_with_consultation"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "bookings" SET "status" = 'canceled', "updated_at" = NEW."updated_at"
    WHERE "consultation_id" = NEW."id" AND "status" = 'booked';
  RETURN NEW;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "consultations_release_booking" AFTER UPDATE OF "status" ON "consultations"
  FOR EACH ROW WHEN (NEW."status" IN ('canceled', 'expired') AND OLD."status" IS DISTINCT FROM NEW."status")
  EXECUTE FUNCTION "bookings_release_with_consultation"();
