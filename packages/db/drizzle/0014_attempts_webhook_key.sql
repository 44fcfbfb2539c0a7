-- An attempt's webhook is its event's: the event's foreign key already ties the attempt to a
-- live webhook (deleting a webhook deletes its events, and they their attempts). A second key on
-- the attempt cost every attempt insert another lookup and share lock on the webhook's row.
-- docs/decisions.md, "Events as a queue table".
ALTER TABLE "delivery_attempts" DROP CONSTRAINT "delivery_attempts_webhook_id_webhooks_id_fk";
