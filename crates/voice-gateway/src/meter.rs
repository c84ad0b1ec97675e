//! Metering: the audio a connection received, reported to the broker in milliseconds.
//!
//! Audio is counted in frames at the stream's rate, and every report sends the whole milliseconds
//! received since the previous one, so the reports of a connection add up exactly to its audio's
//! length (rounded down once, at the end). A report goes out every `every_ms` of audio, as soon as the
//! audio since the last report reaches the locally tracked remaining allowance, and once at the end.
//! A report that fails is retried with the same sequence number (the broker ignores a repeated one), so
//! no audio is billed twice and none is lost.

use std::time::Duration;

use tokio::sync::{mpsc, oneshot};

use crate::broker::{Broker, UsageOutcome};

/// What the meter tells the session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MeterEvent {
    /// The speech limit is reached (the broker's message): the session ends with error 456.
    LimitReached(String),
    /// A reconnect token was issued: the connection closes.
    Superseded,
}

enum Command {
    Audio(u64),
    Finish(oneshot::Sender<()>),
}

/// The session's handle on its meter task.
pub struct Meter {
    commands: mpsc::UnboundedSender<Command>,
}

/// How often, and with what patience, the meter reports.
#[derive(Debug, Clone)]
pub struct MeterConfig {
    /// Audio between two reports.
    pub every_ms: u64,
    /// Attempts per report before giving up until the next one.
    pub attempts: u32,
    /// The pause before the first retry (doubled for each next one).
    pub retry_delay: Duration,
}

impl Default for MeterConfig {
    fn default() -> MeterConfig {
        MeterConfig { every_ms: 10_000, attempts: 4, retry_delay: Duration::from_millis(200) }
    }
}

/// The reporting state of one connection.
struct Ledger {
    session_id: String,
    connection: u64,
    rate: u64,
    frames: u64,
    /// Milliseconds the broker has recorded.
    reported_ms: u64,
    /// A report sent whose answer never came: retried before any new one.
    unanswered: Option<(u64, u64)>,
    sequence: u64,
    remaining_ms: Option<u64>,
    /// Superseded or limited: nothing more is reported.
    stopped: bool,
}

impl Meter {
    /// Starts the meter of a connection whose audio runs at `rate` frames per second.
    pub fn start(
        broker: Broker,
        config: MeterConfig,
        session_id: String,
        connection: u64,
        rate: u32,
        remaining_ms: Option<u64>,
        events: mpsc::UnboundedSender<MeterEvent>,
    ) -> Meter {
        let (commands, mut received) = mpsc::unbounded_channel();
        let mut ledger = Ledger {
            session_id,
            connection,
            rate: u64::from(rate),
            frames: 0,
            reported_ms: 0,
            unanswered: None,
            sequence: 0,
            remaining_ms,
            stopped: false,
        };
        tokio::spawn(async move {
            while let Some(command) = received.recv().await {
                match command {
                    Command::Audio(frames) => {
                        ledger.frames += frames;
                        let unreported = ledger.unreported_ms();
                        let due = unreported >= config.every_ms
                            || ledger.remaining_ms.is_some_and(|remaining| unreported >= remaining.max(1));
                        if due && !ledger.stopped {
                            ledger.report(&broker, &config, &events).await;
                        }
                    }
                    Command::Finish(done) => {
                        if !ledger.stopped && (ledger.unreported_ms() > 0 || ledger.unanswered.is_some()) {
                            ledger.report(&broker, &config, &events).await;
                        }
                        let _ = done.send(());
                        return;
                    }
                }
            }
        });
        Meter { commands }
    }

    /// Counts received audio.
    pub fn audio(&self, frames: u64) {
        let _ = self.commands.send(Command::Audio(frames));
    }

    /// Sends the final report and waits for it (at most `patience`).
    pub async fn finish(&self, patience: Duration) {
        let (done, finished) = oneshot::channel();
        if self.commands.send(Command::Finish(done)).is_ok() {
            let _ = tokio::time::timeout(patience, finished).await;
        }
    }
}

impl Ledger {
    fn received_ms(&self) -> u64 {
        self.frames * 1000 / self.rate
    }

    fn unreported_ms(&self) -> u64 {
        let pending = self.unanswered.map_or(0, |(_, milliseconds)| milliseconds);
        self.received_ms() - self.reported_ms - pending
    }

    /// Sends the unanswered report if any, then one for the audio since.
    async fn report(&mut self, broker: &Broker, config: &MeterConfig, events: &mpsc::UnboundedSender<MeterEvent>) {
        loop {
            let (sequence, milliseconds) = match self.unanswered {
                Some(report) => report,
                None => {
                    let milliseconds = self.unreported_ms();
                    if milliseconds == 0 {
                        return;
                    }
                    self.sequence += 1;
                    (self.sequence, milliseconds)
                }
            };
            self.unanswered = Some((sequence, milliseconds));
            let mut delay = config.retry_delay;
            let mut outcome = None;
            for attempt in 1..=config.attempts.max(1) {
                match broker.report_usage(&self.session_id, self.connection, sequence, milliseconds).await {
                    Ok(answer) => {
                        outcome = Some(answer);
                        break;
                    }
                    Err(error) => {
                        tracing::warn!(session = %self.session_id, sequence, attempt, %error, "usage report failed");
                        if attempt < config.attempts {
                            tokio::time::sleep(delay).await;
                            delay *= 2;
                        }
                    }
                }
            }
            let Some(outcome) = outcome else { return };
            self.unanswered = None;
            self.reported_ms += milliseconds;
            match outcome {
                UsageOutcome::Recorded { remaining_ms } => self.remaining_ms = remaining_ms,
                UsageOutcome::LimitReached(message) => {
                    self.stopped = true;
                    let _ = events.send(MeterEvent::LimitReached(message));
                    return;
                }
                UsageOutcome::Superseded => {
                    self.stopped = true;
                    let _ = events.send(MeterEvent::Superseded);
                    return;
                }
            }
        }
    }
}
