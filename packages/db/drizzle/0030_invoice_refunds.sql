CREATE TABLE "invoice_refunds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"invoice_id" uuid NOT NULL,
	"idempotency_key" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"provider_refund_id" text NOT NULL,
	"reason" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "invoice_refunds_amount_positive" CHECK ("invoice_refunds"."amount_cents" > 0)
);
--> statement-breakpoint
ALTER TABLE "invoice_refunds" ADD CONSTRAINT "invoice_refunds_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "invoice_refunds_invoice_key_idx" ON "invoice_refunds" USING btree ("invoice_id","idempotency_key");--> statement-breakpoint
-- hand-written:
-- The refund an operator made before several were allowed becomes the invoice's first refund, under
-- the key a request without one uses.
INSERT INTO "invoice_refunds" ("invoice_id", "idempotency_key", "amount_cents", "provider_refund_id", "reason", "created_at")
SELECT "id", 'single', "refunded_amount_cents", COALESCE("provider_refund_id", ''), "refund_reason", "refunded_at"
FROM "invoices"
WHERE "refund_reason" IS NOT NULL AND "refunded_at" IS NOT NULL AND "refunded_amount_cents" > 0;
