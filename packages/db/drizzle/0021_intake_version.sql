-- The intake version each consultation's answers were stored with (ADR 057): the API reads every
-- version back, upgrading older ones. Every intake stored so far was asked by version 1, so the
-- existing rows get 1 (a constant default: no rewrite of the table on PostgreSQL 11 and later).
ALTER TABLE "consultations" ADD COLUMN "intake_version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "consultations" ADD CONSTRAINT "consultations_intake_version_known" CHECK ("consultations"."intake_version" >= 1);