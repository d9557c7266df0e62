ALTER TABLE "verifier"."presentation_sessions" ADD COLUMN "request_fetch_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "verifier"."presentation_sessions" ADD COLUMN "response_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "verifier"."presentation_sessions" ADD COLUMN "limit_window_started_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "verifier"."presentation_sessions" ADD COLUMN "response_code_hash" text;--> statement-breakpoint
ALTER TABLE "verifier"."trust_anchors" ADD COLUMN "credential_types" text[];