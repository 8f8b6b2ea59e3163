//! A queue backend that is asked for jobs only when there may be some.
//!
//! apalis asks its backend for the next batch whenever the worker's task is woken, and an
//! empty fetch from the SQLite queue is followed by another wake within a millisecond: the
//! idle embedded server ran about 1,300 `UPDATE Jobs …` fetches a second and burnt a third of
//! a core doing nothing. [`WakeOnWork`] lets a fetch through only when
//! - a job was written (SQLite's update hook, which sees every insert of this process),
//! - the fetch it let through before is answering (its own waker fired), or
//! - a second has passed: jobs whose time came (a retry's `run_at`), jobs a dead worker left,
//!   and jobs another process wrote are found by then.
//!
//! After a fetch comes back empty, nothing else (a timer, a finished job, a heartbeat) starts
//! another one. Everything but `poll_next` passes straight through.

use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::{Context, Poll, Wake, Waker};
use std::time::Duration;

use apalis_core::backend::{Backend, BackendConfig, WireFormatBackend};
use apalis_core::worker::context::WorkerContext;
use futures::task::AtomicWaker;
use futures::{Sink, SinkExt, Stream, StreamExt};

/// How often an idle queue looks for work nobody announced.
pub const IDLE_LOOK: Duration = Duration::from_secs(1);

/// The waker handed to the inner backend: it notes that the inner backend's own work (a fetch
/// in flight) woke the task, and wakes the task.
#[derive(Default)]
struct InnerWaker {
    woken: AtomicBool,
    task: AtomicWaker,
}

impl Wake for InnerWaker {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        self.woken.store(true, Ordering::SeqCst);
        self.task.wake();
    }
}

/// `backend`, asked for jobs only on a sign of work (see the module's text). `written` yields
/// once for each job written (or a batch of them).
pub struct WakeOnWork<B, W> {
    backend: B,
    written: W,
    look: tokio::time::Interval,
    /// Whether the next `poll_next` goes through to the backend.
    open: bool,
    inner: Arc<InnerWaker>,
    /// `inner` as the waker the backend is polled with (made once).
    inner_waker: Waker,
}

impl<B, W> WakeOnWork<B, W> {
    pub fn new(backend: B, written: W, look_every: Duration) -> WakeOnWork<B, W> {
        let mut look = tokio::time::interval(look_every);
        look.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let inner = Arc::<InnerWaker>::default();
        let inner_waker = Waker::from(inner.clone());
        // Open at first: the backend registers and makes its first fetch.
        WakeOnWork { backend, written, look, open: true, inner, inner_waker }
    }
}

impl<B, W> Backend for WakeOnWork<B, W>
where
    B: Backend,
    W: Stream<Item = ()> + Unpin,
{
    type Task = B::Task;
    type Error = B::Error;

    fn poll_ready(&mut self, cx: &mut Context<'_>, worker: &WorkerContext) -> Poll<Result<(), Self::Error>> {
        self.backend.poll_ready(cx, worker)
    }

    fn poll_next(&mut self, cx: &mut Context<'_>, worker: &WorkerContext) -> Poll<Option<Result<Self::Task, Self::Error>>> {
        // Drain every sign, so each registers this task's waker for the next one.
        while let Poll::Ready(Some(())) = self.written.poll_next_unpin(cx) {
            self.open = true;
        }
        if self.look.poll_tick(cx).is_ready() {
            self.open = true;
        }
        if self.inner.woken.swap(false, Ordering::SeqCst) {
            self.open = true;
        }
        if !self.open {
            return Poll::Pending;
        }
        self.inner.task.register(cx.waker());
        match self.backend.poll_next(&mut Context::from_waker(&self.inner_waker), worker) {
            // A fetch in flight wakes `inner` when it answers; an empty one waits for a sign.
            Poll::Pending => {
                self.open = false;
                Poll::Pending
            }
            ready => ready,
        }
    }

    fn poll_close(&mut self, cx: &mut Context<'_>, worker: &WorkerContext) -> Poll<Result<(), Self::Error>> {
        self.backend.poll_close(cx, worker)
    }
}

impl<B: BackendConfig, W> BackendConfig for WakeOnWork<B, W> {
    type Args = B::Args;
    type Id = B::Id;
    type Kind = B::Kind;
    type Config = B::Config;
    type Layer = B::Layer;

    fn config(&self) -> &Self::Config {
        self.backend.config()
    }

    fn middleware(&mut self, worker: &mut WorkerContext) -> Self::Layer {
        self.backend.middleware(worker)
    }
}

impl<B: WireFormatBackend, W> WireFormatBackend for WakeOnWork<B, W> {
    type Compact = B::Compact;
    type Codec = B::Codec;

    fn codec(&self) -> &Self::Codec {
        self.backend.codec()
    }
}

impl<B: Sink<T> + Unpin, W: Unpin, T> Sink<T> for WakeOnWork<B, W> {
    type Error = B::Error;

    fn poll_ready(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.get_mut().backend.poll_ready_unpin(cx)
    }

    fn start_send(self: Pin<&mut Self>, item: T) -> Result<(), Self::Error> {
        self.get_mut().backend.start_send_unpin(item)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.get_mut().backend.poll_flush_unpin(cx)
    }

    fn poll_close(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.get_mut().backend.poll_close_unpin(cx)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;
    use std::sync::atomic::AtomicUsize;

    use futures::channel::mpsc;
    use futures::task::noop_waker;

    use super::*;

    /// A backend shaped like apalis' SQLite one: a poll in `Idle` starts a fetch and is
    /// pending until the test answers it through the waker the fetch was given.
    #[derive(Default)]
    struct Fetches {
        asked: AtomicUsize,
        in_flight: Mutex<Option<Waker>>,
        answer: Mutex<Option<Vec<u32>>>,
        buffered: Mutex<Vec<u32>>,
    }

    struct Fake(Arc<Fetches>);

    #[derive(Debug, thiserror::Error)]
    #[error("never")]
    struct Never;

    impl Backend for Fake {
        type Task = u32;
        type Error = Never;

        fn poll_ready(&mut self, _: &mut Context<'_>, _: &WorkerContext) -> Poll<Result<(), Never>> {
            Poll::Ready(Ok(()))
        }

        fn poll_next(&mut self, cx: &mut Context<'_>, _: &WorkerContext) -> Poll<Option<Result<u32, Never>>> {
            let f = &self.0;
            if let Some(task) = f.buffered.lock().unwrap().pop() {
                return Poll::Ready(Some(Ok(task)));
            }
            let mut in_flight = f.in_flight.lock().unwrap();
            if in_flight.is_some() {
                if let Some(mut tasks) = f.answer.lock().unwrap().take() {
                    *in_flight = None;
                    let first = tasks.pop();
                    *f.buffered.lock().unwrap() = tasks;
                    // An empty answer parks, as apalis does; something else wakes the task.
                    return first.map_or(Poll::Pending, |t| Poll::Ready(Some(Ok(t))));
                }
                return Poll::Pending;
            }
            f.asked.fetch_add(1, Ordering::SeqCst);
            *in_flight = Some(cx.waker().clone());
            Poll::Pending
        }

        fn poll_close(&mut self, _: &mut Context<'_>, _: &WorkerContext) -> Poll<Result<(), Never>> {
            Poll::Ready(Ok(()))
        }
    }

    impl Fetches {
        fn answer(&self, tasks: Vec<u32>) {
            *self.answer.lock().unwrap() = Some(tasks);
            self.in_flight.lock().unwrap().as_ref().expect("a fetch in flight").wake_by_ref();
        }
    }

    fn poll(gate: &mut WakeOnWork<Fake, mpsc::UnboundedReceiver<()>>) -> Poll<Option<u32>> {
        let worker = WorkerContext::from("test");
        let waker = noop_waker();
        gate.poll_next(&mut Context::from_waker(&waker), &worker).map(|t| t.map(|r| r.unwrap()))
    }

    #[tokio::test(start_paused = true)]
    async fn an_empty_fetch_waits_for_a_written_job_or_the_next_look() {
        let fetches = Arc::new(Fetches::default());
        let (written, on_write) = mpsc::unbounded();
        let mut gate = WakeOnWork::new(Fake(fetches.clone()), on_write, Duration::from_secs(1));

        assert_eq!(poll(&mut gate), Poll::Pending);
        assert_eq!(fetches.asked.load(Ordering::SeqCst), 1, "the first poll fetches");
        fetches.answer(vec![]);
        assert_eq!(poll(&mut gate), Poll::Pending, "the answer was empty");
        // Whatever wakes the worker now (a timer, a finished job) asks nothing.
        for _ in 0..100 {
            assert_eq!(poll(&mut gate), Poll::Pending);
        }
        assert_eq!(fetches.asked.load(Ordering::SeqCst), 1, "no fetch after an empty one");

        // A job written: the next poll fetches, and its answer goes through at once.
        written.unbounded_send(()).unwrap();
        assert_eq!(poll(&mut gate), Poll::Pending);
        assert_eq!(fetches.asked.load(Ordering::SeqCst), 2);
        fetches.answer(vec![8, 7]);
        assert_eq!(poll(&mut gate), Poll::Ready(Some(7)));
        assert_eq!(poll(&mut gate), Poll::Ready(Some(8)), "the batch drains");
        assert_eq!(poll(&mut gate), Poll::Pending, "and the next fetch starts");
        assert_eq!(fetches.asked.load(Ordering::SeqCst), 3);
        fetches.answer(vec![]);
        assert_eq!(poll(&mut gate), Poll::Pending);

        // Nothing written: a second on, one look.
        tokio::time::advance(Duration::from_millis(999)).await;
        assert_eq!(poll(&mut gate), Poll::Pending);
        assert_eq!(fetches.asked.load(Ordering::SeqCst), 3, "not before the second");
        tokio::time::advance(Duration::from_millis(1)).await;
        assert_eq!(poll(&mut gate), Poll::Pending);
        assert_eq!(fetches.asked.load(Ordering::SeqCst), 4, "the look after a second");
    }

    #[tokio::test(start_paused = true)]
    async fn a_fetch_in_flight_is_answered_whatever_else_wakes_the_worker() {
        let fetches = Arc::new(Fetches::default());
        let (_written, on_write) = mpsc::unbounded();
        let mut gate = WakeOnWork::new(Fake(fetches.clone()), on_write, Duration::from_secs(3600));
        assert_eq!(poll(&mut gate), Poll::Pending);
        // The worker is woken for something else while the fetch is out: nothing new is asked,
        // and the fetch's answer still comes through when it arrives.
        assert_eq!(poll(&mut gate), Poll::Pending);
        fetches.answer(vec![5]);
        assert_eq!(poll(&mut gate), Poll::Ready(Some(5)));
        assert_eq!(fetches.asked.load(Ordering::SeqCst), 1);
    }
}
