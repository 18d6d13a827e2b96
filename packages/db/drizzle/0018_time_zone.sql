-- The IANA time zone a patient's times are shown in (the browser's at first, then the patient's
-- choice on /my-profile). Null: not known yet, and the pages show UTC, labelled as such.
ALTER TABLE "users" ADD COLUMN "time_zone" text;