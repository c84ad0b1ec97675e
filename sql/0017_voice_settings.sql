-- Real-time voice settings of a subscription, set through the admin API. Idempotent: applied at
-- every start.
--
-- `translated_speech` (0 or 1) lets the subscription's sessions ask for translated speech
-- (`target_media_languages`), a closed beta: off until an admin turns it on. A subscription
-- without a row has every setting off.
CREATE TABLE IF NOT EXISTS voice_settings (
    subscription_id   TEXT PRIMARY KEY,
    translated_speech INTEGER NOT NULL DEFAULT 0,
    updated_at        INTEGER NOT NULL                 -- Unix ms
) WITHOUT ROWID;
