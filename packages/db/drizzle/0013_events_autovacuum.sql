-- Events are a queue: every delivery turns an open row into a settled one. Analyze and vacuum
-- it after 1 % of its rows changed (plus 1,000), not Postgres's default 10 % / 20 %: cached
-- plans of the worker's batched statements are re-made from fresh statistics soon after a
-- backlog builds, and the dead rows of settled events are reclaimed while they are few.
-- docs/decisions.md, "Events as a queue table".
ALTER TABLE "events" SET (
  autovacuum_analyze_scale_factor = 0.01,
  autovacuum_analyze_threshold = 1000,
  autovacuum_vacuum_scale_factor = 0.02,
  autovacuum_vacuum_threshold = 1000
);
