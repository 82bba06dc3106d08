-- Wake-ups (docs/scale-out.md): a row that should wake a waiting agent (an unread
-- `blocking` or `needs_reply` message, a pending handoff or relay) sends
-- pg_notify('colony_wake', payload) from its own transaction, so the notice goes out on
-- COMMIT only (a rolled-back insert notifies nobody). The payload is a small JSON
-- object, never a body: ids, the addressee (clipped), the urgency; well under the
-- 8000-byte limit. Listeners treat it as a hint and re-read the store.
CREATE OR REPLACE FUNCTION colony_wake_message() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('colony_wake', json_build_object(
    'kind', 'message', 'id', NEW.id, 'task_id', NEW.task_id,
    'to_agent', left(NEW.to_agent, 200), 'to_session_id', left(NEW.to_session_id, 500),
    'urgency', NEW.urgency)::text);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION colony_wake_baton() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('colony_wake', json_build_object(
    'kind', 'handoff', 'id', NEW.id, 'task_id', NEW.task_id,
    'to_agent', left(NEW.to_agent, 200), 'to_session_id', left(NEW.to_session_id, 500),
    'urgency', NULL)::text);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER messages_wake_insert AFTER INSERT ON messages FOR EACH ROW
  WHEN (NEW.status = 'unread' AND NEW.urgency IN ('blocking', 'needs_reply'))
  EXECUTE FUNCTION colony_wake_message();--> statement-breakpoint
CREATE TRIGGER messages_wake_update AFTER UPDATE OF status, urgency ON messages FOR EACH ROW
  WHEN (NEW.status = 'unread' AND NEW.urgency IN ('blocking', 'needs_reply')
    AND (OLD.status <> 'unread' OR OLD.urgency NOT IN ('blocking', 'needs_reply')))
  EXECUTE FUNCTION colony_wake_message();--> statement-breakpoint
CREATE TRIGGER batons_wake_insert AFTER INSERT ON batons FOR EACH ROW
  WHEN (NEW.status = 'pending')
  EXECUTE FUNCTION colony_wake_baton();--> statement-breakpoint
CREATE TRIGGER batons_wake_update AFTER UPDATE OF status ON batons FOR EACH ROW
  WHEN (NEW.status = 'pending' AND OLD.status <> 'pending')
  EXECUTE FUNCTION colony_wake_baton();
