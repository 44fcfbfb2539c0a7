-- No query looks events up by parent: a child names its parent, and the parent is read by its
-- key. The index cost an entry in every event insert and every settle (an UPDATE of indexed
-- columns, never HOT), for every event, parent or not. docs/decisions.md, "Events as a queue table".
DROP INDEX IF EXISTS "events_parent_idx";
