//! Writes the answers of a worker process's pushes, a few hundred per statement, from one
//! task: a job hands its answers over and goes on sending, instead of hundreds of jobs each
//! waiting for a database connection in the middle of a burst.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use hibiki_common::domain::ids::SubscriptionId;
use hibiki_common::infra::storage::{Db, DeviceResult};
use tokio::sync::{mpsc, oneshot};

/// Answers are written at least this often, and whenever this many are waiting: a worker
/// that dies loses at most this much of its record (those devices are sent again once their
/// claim goes stale; the Topic and the notification tag collapse the double).
const RECORD_EVERY: Duration = Duration::from_millis(100);
const RECORD_ROWS: usize = 500;
/// A device's last success is written at most this often (it feeds the 180-day rule and the
/// health view, not the hot path).
const SUCCESS_WRITE_EVERY: Duration = Duration::from_secs(600);
/// Tries of a write before its answers are given up (their devices then go stale and are
/// sent again).
const WRITE_TRIES: u32 = 4;

enum Message {
    Answer(DeviceResult),
    /// Answered once every answer handed over before it is written (or given up).
    Flush(oneshot::Sender<bool>),
}

#[derive(Debug, thiserror::Error)]
#[error("the answers of some pushes could not be written")]
pub struct RecordError;

/// A handle on the process's recorder task; cheap to share.
#[derive(Clone)]
pub struct Recorder {
    tx: mpsc::UnboundedSender<Message>,
}

impl Recorder {
    /// Starts the recorder task (it ends when the last handle is dropped, after a last write).
    pub fn start(db: Db) -> Recorder {
        let (tx, rx) = mpsc::unbounded_channel();
        tokio::spawn(run(db, rx));
        Recorder { tx }
    }

    /// Hands over one push's answer.
    pub fn record(&self, result: DeviceResult) {
        // The task lives as long as any handle; a send fails only during shutdown.
        let _ = self.tx.send(Message::Answer(result));
    }

    /// Waits until every answer handed over so far is written.
    pub async fn flush(&self) -> Result<(), RecordError> {
        let (tx, rx) = oneshot::channel();
        self.tx.send(Message::Flush(tx)).map_err(|_| RecordError)?;
        if rx.await.unwrap_or(false) { Ok(()) } else { Err(RecordError) }
    }
}

async fn run(db: Db, mut rx: mpsc::UnboundedReceiver<Message>) {
    let mut answers: Vec<DeviceResult> = Vec::new();
    let mut waiters: Vec<oneshot::Sender<bool>> = Vec::new();
    let mut successes = SuccessThrottle::default();
    while let Some(first) = rx.recv().await {
        take(first, &mut answers, &mut waiters);
        // Gather more until the batch is full, a job waits for it, or the time is up.
        let deadline = tokio::time::Instant::now() + RECORD_EVERY;
        while answers.len() < RECORD_ROWS && waiters.is_empty() {
            match tokio::time::timeout_at(deadline, rx.recv()).await {
                Ok(Some(message)) => take(message, &mut answers, &mut waiters),
                Ok(None) | Err(_) => break,
            }
        }
        while answers.len() < 4 * RECORD_ROWS
            && let Ok(message) = rx.try_recv()
        {
            take(message, &mut answers, &mut waiters);
        }
        let written = write(&db, &answers, &mut successes).await;
        answers.clear();
        for waiter in waiters.drain(..) {
            let _ = waiter.send(written);
        }
    }
}

fn take(message: Message, answers: &mut Vec<DeviceResult>, waiters: &mut Vec<oneshot::Sender<bool>>) {
    match message {
        Message::Answer(a) => answers.push(a),
        Message::Flush(w) => waiters.push(w),
    }
}

async fn write(db: &Db, answers: &[DeviceResult], successes: &mut SuccessThrottle) -> bool {
    if answers.is_empty() {
        return true;
    }
    let mut tries = 0;
    loop {
        tries += 1;
        match db.record_device_results(answers).await {
            Ok(()) => break,
            Err(e) if tries < WRITE_TRIES => {
                tracing::warn!(error = %e, tries, "could not record push answers; trying again");
                tokio::time::sleep(Duration::from_millis(250) * tries).await;
            }
            Err(e) => {
                tracing::error!(error = %e, count = answers.len(), "could not record push answers; their devices will be sent again");
                return false;
            }
        }
    }
    let succeeded: Vec<SubscriptionId> = answers
        .iter()
        .filter(|a| a.status == hibiki_common::domain::states::DeviceDeliveryStatus::Sent && successes.due(&a.subscription_id))
        .map(|a| a.subscription_id)
        .collect();
    if let Some(at) = answers.last().map(|a| a.at)
        && let Err(e) = db.devices_succeeded(&succeeded, at).await
    {
        tracing::warn!(error = %e, "could not record devices' last success");
    }
    true
}

/// When this process last wrote each device's success.
#[derive(Default)]
struct SuccessThrottle {
    written: HashMap<SubscriptionId, Instant>,
}

impl SuccessThrottle {
    /// Whether a success for `device` should be written now.
    fn due(&mut self, device: &SubscriptionId) -> bool {
        if self.written.get(device).is_some_and(|at| at.elapsed() < SUCCESS_WRITE_EVERY) {
            return false;
        }
        if self.written.len() > 100_000 {
            self.written.retain(|_, at| at.elapsed() < SUCCESS_WRITE_EVERY);
        }
        self.written.insert(*device, Instant::now());
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_device_success_is_written_once_per_period() {
        let mut throttle = SuccessThrottle::default();
        let (a, b) = (SubscriptionId::generate(), SubscriptionId::generate());
        assert!(throttle.due(&a));
        assert!(!throttle.due(&a), "again at once: not written");
        assert!(throttle.due(&b), "another device has its own period");
        // (Only where the monotonic clock goes back that far: it starts at boot.)
        if let Some(long_ago) = Instant::now().checked_sub(SUCCESS_WRITE_EVERY) {
            throttle.written.insert(a, long_ago);
            assert!(throttle.due(&a), "after the period it is written again");
        }
    }
}
