CREATE TABLE "consultation_message_attachments" (
	"message_id" uuid NOT NULL,
	"document_id" uuid NOT NULL,
	CONSTRAINT "consultation_message_attachments_message_id_document_id_pk" PRIMARY KEY("message_id","document_id")
);
--> statement-breakpoint
ALTER TABLE "consultation_messages" ADD COLUMN "seq" integer;--> statement-breakpoint
UPDATE "consultation_messages" AS "m" SET "seq" = "numbered"."seq" FROM (SELECT "id", row_number() OVER (PARTITION BY "consultation_id" ORDER BY "created_at", "id") AS "seq" FROM "consultation_messages") AS "numbered" WHERE "numbered"."id" = "m"."id";--> statement-breakpoint
ALTER TABLE "consultation_messages" ALTER COLUMN "seq" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "consultation_messages" ADD COLUMN "client_id" uuid;--> statement-breakpoint
ALTER TABLE "consultation_messages" ADD COLUMN "delivered_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "consultation_messages" ADD COLUMN "read_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "consultation_messages" ADD COLUMN "retracted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "medical_documents" ADD COLUMN "consultation_id" uuid;--> statement-breakpoint
ALTER TABLE "consultation_message_attachments" ADD CONSTRAINT "consultation_message_attachments_message_id_consultation_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."consultation_messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consultation_message_attachments" ADD CONSTRAINT "consultation_message_attachments_document_id_medical_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."medical_documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "consultation_message_attachments_document_idx" ON "consultation_message_attachments" USING btree ("document_id");--> statement-breakpoint
ALTER TABLE "medical_documents" ADD CONSTRAINT "medical_documents_consultation_id_consultations_id_fk" FOREIGN KEY ("consultation_id") REFERENCES "public"."consultations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "consultation_messages_seq_idx" ON "consultation_messages" USING btree ("consultation_id","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "consultation_messages_client_id_idx" ON "consultation_messages" USING btree ("consultation_id","client_id");