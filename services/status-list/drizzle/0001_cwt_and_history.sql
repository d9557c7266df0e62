CREATE TABLE "status_list"."status_list_versions" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "status_list"."status_list_versions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"list_id" uuid NOT NULL,
	"jwt" text,
	"cwt" "bytea",
	"etag" text NOT NULL,
	"iat" bigint NOT NULL,
	"exp" bigint,
	"ttl" integer,
	"written_at" timestamp with time zone NOT NULL,
	"superseded_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "status_list_versions_one_form" CHECK ((jwt is null) <> (cwt is null))
);
--> statement-breakpoint
ALTER TABLE "status_list"."status_lists" ALTER COLUMN "jwt" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "status_list"."status_lists" ADD COLUMN "cwt" "bytea";--> statement-breakpoint
ALTER TABLE "status_list"."status_list_versions" ADD CONSTRAINT "status_list_versions_list_id_status_lists_id_fk" FOREIGN KEY ("list_id") REFERENCES "status_list"."status_lists"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "status_list_versions_list_iat_idx" ON "status_list"."status_list_versions" USING btree ("list_id","iat");--> statement-breakpoint
CREATE INDEX "status_list_versions_superseded_at_idx" ON "status_list"."status_list_versions" USING btree ("superseded_at");--> statement-breakpoint
ALTER TABLE "status_list"."status_lists" ADD CONSTRAINT "status_lists_one_form" CHECK ((jwt is null) <> (cwt is null));