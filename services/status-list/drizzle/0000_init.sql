CREATE SCHEMA "status_list";
--> statement-breakpoint
CREATE TABLE "status_list"."status_lists" (
	"id" uuid PRIMARY KEY NOT NULL,
	"jwt" text NOT NULL,
	"bits" smallint NOT NULL,
	"sub" text NOT NULL,
	"iat" bigint NOT NULL,
	"exp" bigint,
	"ttl" integer,
	"etag" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"written_txid" bigint DEFAULT (pg_current_xact_id()::text::bigint) NOT NULL
);
--> statement-breakpoint
CREATE INDEX "status_lists_written_txid_idx" ON "status_list"."status_lists" USING btree ("written_txid");