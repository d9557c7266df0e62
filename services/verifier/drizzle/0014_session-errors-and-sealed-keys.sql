ALTER TABLE "verifier"."presentation_sessions" ADD COLUMN "error_subject" text;--> statement-breakpoint
CREATE INDEX "sessions_sealed_encryption_key_idx" ON "verifier"."presentation_sessions" USING btree ("id") WHERE encrypted_encryption_key is not null;--> statement-breakpoint
CREATE INDEX "sessions_sealed_annex_c_key_idx" ON "verifier"."presentation_sessions" USING btree ("id") WHERE encrypted_annex_c_key is not null;--> statement-breakpoint
-- Hand-written (issue 28, item 3): messages stored by earlier versions could quote what a wallet
-- sent (a parser's message) or where a status list lives; this version makes every message from
-- error_code and error_subject and never reads error_message, so the old texts are removed.
UPDATE "verifier"."presentation_sessions" SET "error_message" = NULL WHERE "error_message" IS NOT NULL;
