CREATE TABLE "ecosystem"."rate_limit_windows" (
	"key" text PRIMARY KEY NOT NULL,
	"count" integer NOT NULL,
	"window_ends_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "rate_limit_windows_ends_idx" ON "ecosystem"."rate_limit_windows" USING btree ("window_ends_at");--> statement-breakpoint
CREATE INDEX "rate_limit_windows_updated_idx" ON "ecosystem"."rate_limit_windows" USING btree ("updated_at");