//! Answers that are expensive to make and fine to be a moment old (health, status): made at
//! most once per `max_age`, and by one request at a time while the others wait for it.

use std::time::Duration;

use tokio::time::Instant;

pub struct Recent<T> {
    max_age: Duration,
    slot: tokio::sync::Mutex<Option<(Instant, T)>>,
}

impl<T: Clone> Recent<T> {
    pub fn new(max_age: Duration) -> Recent<T> {
        Recent { max_age, slot: tokio::sync::Mutex::new(None) }
    }

    /// The kept answer while it is younger than `max_age`, else a new one from `make`
    /// (an error is not kept).
    pub async fn get_or_make<E, F, Fut>(&self, make: F) -> Result<T, E>
    where
        F: FnOnce() -> Fut,
        Fut: Future<Output = Result<T, E>>,
    {
        let mut slot = self.slot.lock().await;
        if let Some((made, answer)) = slot.as_ref()
            && made.elapsed() < self.max_age
        {
            return Ok(answer.clone());
        }
        let answer = make().await?;
        *slot = Some((Instant::now(), answer.clone()));
        Ok(answer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU32, Ordering};

    #[tokio::test(start_paused = true)]
    async fn makes_once_per_max_age_and_never_keeps_an_error() {
        let recent = Recent::new(Duration::from_secs(2));
        let made = AtomicU32::new(0);
        let make = || async { Ok::<_, ()>(made.fetch_add(1, Ordering::SeqCst) + 1) };
        assert_eq!(recent.get_or_make(make).await, Ok(1));
        tokio::time::advance(Duration::from_millis(1900)).await;
        assert_eq!(recent.get_or_make(make).await, Ok(1), "1.9 s old: kept");
        tokio::time::advance(Duration::from_millis(200)).await;
        assert_eq!(recent.get_or_make(make).await, Ok(2), "2.1 s old: made again");

        let failing: Recent<u32> = Recent::new(Duration::from_secs(60));
        assert_eq!(failing.get_or_make(|| async { Err::<u32, &str>("down") }).await, Err("down"));
        assert_eq!(failing.get_or_make(|| async { Ok::<_, &str>(7) }).await, Ok(7), "an error is not kept");
    }
}
