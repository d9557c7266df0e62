CREATE TABLE "verifier"."session_counts" (
	"org_id" text PRIMARY KEY NOT NULL,
	"total" bigint NOT NULL
);
--> statement-breakpoint
DROP INDEX "verifier"."sessions_org_created_idx";--> statement-breakpoint
CREATE INDEX "sessions_org_created_id_idx" ON "verifier"."presentation_sessions" USING btree ("org_id","created_at","id");--> statement-breakpoint
CREATE INDEX "sessions_open_org_expires_idx" ON "verifier"."presentation_sessions" USING btree ("org_id","expires_at") WHERE state in ('RequestCreated', 'RequestUriRetrieved');--> statement-breakpoint
INSERT INTO "verifier"."session_counts" ("org_id", "total") SELECT "org_id", count(*) FROM "verifier"."presentation_sessions" GROUP BY "org_id";
