CREATE TABLE "verifier"."rate_limit_windows" (
	"key" text PRIMARY KEY NOT NULL,
	"count" integer NOT NULL,
	"window_ends_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "rate_limit_windows_ends_idx" ON "verifier"."rate_limit_windows" USING btree ("window_ends_at");