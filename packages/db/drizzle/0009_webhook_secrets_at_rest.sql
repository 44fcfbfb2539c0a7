-- Credentials are sealed (AES-256-GCM) by the application, which holds the key: the migrate
-- step that follows the schema migrations seals values stored in clear and fills token_hash.
DROP INDEX "webhooks_ingress_token_key";--> statement-breakpoint
ALTER TABLE "webhooks" ADD COLUMN "token_hash" text;--> statement-breakpoint
CREATE UNIQUE INDEX "webhooks_token_hash_key" ON "webhooks" USING btree ("token_hash");