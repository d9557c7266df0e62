ALTER TABLE "verifier"."presentation_results" ADD COLUMN "sealed_retained_presentations" text;--> statement-breakpoint
ALTER TABLE "verifier"."presentation_results" ADD COLUMN "presentation_summary" jsonb;--> statement-breakpoint
-- Rows stored before sealing hold plain presentations: their summary is derived here (the allow-list of
-- domain/presentation-data.ts summarisePresentations). Sealed rows written before this migration keep a null summary.
UPDATE "verifier"."presentation_results" r SET "presentation_summary" = (
  select coalesce(jsonb_agg((select coalesce(jsonb_object_agg(f.key, f.value), '{}'::jsonb) from jsonb_each(p) f
    where f.key in ('credentialQueryId', 'format', 'vct', 'doctype', 'issuer', 'holderBinding', 'trustedEntityId', 'trustedEntityName', 'trustListSequence'))), '[]'::jsonb)
  from jsonb_array_elements(r."presentations") p)
WHERE r."presentations" is not null;--> statement-breakpoint
ALTER TABLE "verifier"."presentation_results" ADD COLUMN "claims_state" text DEFAULT 'full' NOT NULL;--> statement-breakpoint
-- Results verified before lifetimes existed get the default lifetime (24 h) from their verification.
ALTER TABLE "verifier"."presentation_results" ADD COLUMN "data_expires_at" timestamp with time zone;--> statement-breakpoint
UPDATE "verifier"."presentation_results" SET "data_expires_at" = "verified_at" + interval '24 hours';--> statement-breakpoint
ALTER TABLE "verifier"."presentation_results" ALTER COLUMN "data_expires_at" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "verifier"."presentation_results" ADD COLUMN "read_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "verifier"."presentation_sessions" ADD COLUMN "presentation_data_ttl_seconds" integer;--> statement-breakpoint
CREATE INDEX "presentation_results_data_expires_idx" ON "verifier"."presentation_results" USING btree ("data_expires_at") WHERE claims_state <> 'purged';--> statement-breakpoint
CREATE INDEX "presentation_results_read_expires_idx" ON "verifier"."presentation_results" USING btree ("read_expires_at") WHERE claims_state = 'full' and read_expires_at is not null;--> statement-breakpoint
CREATE INDEX "sessions_created_idx" ON "verifier"."presentation_sessions" USING btree ("created_at");