CREATE TABLE "verifier"."presentation_reads" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"session_id" uuid NOT NULL,
	"org_id" text NOT NULL,
	"subject" text NOT NULL,
	"route" text NOT NULL,
	"read_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "verifier"."presentation_reads" ADD CONSTRAINT "presentation_reads_session_id_presentation_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "verifier"."presentation_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "presentation_reads_org_session_read_idx" ON "verifier"."presentation_reads" USING btree ("org_id","session_id","read_at" DESC NULLS LAST,"id" DESC NULLS LAST);