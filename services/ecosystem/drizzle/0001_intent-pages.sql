ALTER TABLE "ecosystem"."ecosystems" ADD COLUMN "intent_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "intents_ecosystem_created_idx" ON "ecosystem"."intents" USING btree ("ecosystem_id","created_at","id");--> statement-breakpoint
UPDATE "ecosystem"."ecosystems" AS e SET "intent_count" = (SELECT count(*) FROM "ecosystem"."intents" AS i WHERE i."ecosystem_id" = e."id");
