//! The host threads that simulate an epoch's SMs side by side ([`crate::gpu`]): the calling thread and up to
//! `threads - 1` helpers, started with a run whose blocks go to two SMs or more and kept for the run (scoped
//! threads: they end with it). Each parallel step hands out jobs (an SM with what it needs for the step) from one
//! queue; every thread, the caller included, takes the next job until none is left, and the caller collects the
//! results.
//!
//! Why not rayon's pool for this: a step of a small launch (16 SMs of one block each) lasts tens of
//! microseconds, about what it takes a host to wake a sleeping thread; rayon's workers sleep soon after their
//! last job and the caller, outside the pool, sleeps until they finish, so such a launch ran no faster on two
//! threads than on one (ARCHITECTURE.md, Performance: also why large runs gained on 2 to 8 threads). Here a helper
//! keeps looking for work, yielding its core to any other thread that wants it, for [`SPIN`] after its last job
//! before it sleeps, and the caller works instead of waiting.
//!
//! Results never depend on which thread ran a job: each job is one SM's step, and the caller puts the SMs back in
//! their order.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

/// How long a helper looks for work after its last job before it sleeps: longer than the engine's serial work
/// between two steps (the commit of an epoch's writes, a fraction of a millisecond on the largest shipped runs).
pub const SPIN: Duration = Duration::from_millis(1);

/// The queue of a run's parallel steps, shared by the caller and its helpers.
pub struct Team<J, D> {
    state: Mutex<State<J, D>>,
    /// Signalled when jobs are queued or the run ends (for helpers asleep after [`SPIN`]).
    wake: Condvar,
    /// Jobs queued and not yet taken: what a spinning helper looks at without taking the lock.
    queued: AtomicUsize,
    /// Results handed back in the current step.
    done: AtomicUsize,
    quit: AtomicBool,
}

struct State<J, D> {
    jobs: VecDeque<J>,
    /// (A helper's job that panicked hands back its panic, which the caller resumes.)
    results: Vec<std::thread::Result<D>>,
}

impl<J: Send, D: Send> Team<J, D> {
    pub fn new() -> Team<J, D> {
        Team {
            state: Mutex::new(State {
                jobs: VecDeque::new(),
                results: Vec::new(),
            }),
            wake: Condvar::new(),
            queued: AtomicUsize::new(0),
            done: AtomicUsize::new(0),
            quit: AtomicBool::new(false),
        }
    }

    fn lock(&self) -> MutexGuard<'_, State<J, D>> {
        // (A job that panicked poisons nothing the queue relies on: the panic ends the run anyway.)
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The next job, if any is queued.
    fn take(&self) -> Option<J> {
        if self.queued.load(Ordering::Acquire) == 0 {
            return None;
        }
        let job = self.lock().jobs.pop_front();
        if job.is_some() {
            self.queued.fetch_sub(1, Ordering::AcqRel);
        }
        job
    }

    fn hand_back(&self, result: std::thread::Result<D>) {
        self.lock().results.push(result);
        self.done.fetch_add(1, Ordering::AcqRel);
    }

    /// A helper's life: run jobs until the run ends.
    pub fn serve(&self, work: &(impl Fn(J) -> D + Sync)) {
        let mut idle_since = Instant::now();
        loop {
            if let Some(job) = self.take() {
                self.hand_back(std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| work(job))));
                idle_since = Instant::now();
                continue;
            }
            if self.quit.load(Ordering::Acquire) {
                return;
            }
            if idle_since.elapsed() < SPIN {
                std::thread::yield_now();
                continue;
            }
            let mut state = self.lock();
            while state.jobs.is_empty() && !self.quit.load(Ordering::Acquire) {
                state = self.wake.wait(state).unwrap_or_else(PoisonError::into_inner);
            }
            idle_since = Instant::now();
        }
    }

    /// Run `jobs` on the caller and the helpers; their results, in no particular order.
    pub fn run(&self, jobs: impl IntoIterator<Item = J>, work: &(impl Fn(J) -> D + Sync)) -> Vec<D> {
        let n = {
            let mut state = self.lock();
            let before = state.jobs.len();
            state.jobs.extend(jobs);
            let n = state.jobs.len() - before;
            self.done.store(0, Ordering::Release);
            self.queued.fetch_add(n, Ordering::AcqRel);
            n
        };
        self.wake.notify_all();
        while let Some(job) = self.take() {
            self.hand_back(Ok(work(job)));
        }
        // The last jobs finish on the helpers that took them.
        while self.done.load(Ordering::Acquire) < n {
            std::thread::yield_now();
        }
        std::mem::take(&mut self.lock().results)
            .into_iter()
            .map(|r| r.unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
            .collect()
    }
}

impl<J, D> Team<J, D> {
    /// End the run: the helpers return.
    pub fn finish(&self) {
        self.quit.store(true, Ordering::Release);
        // (Under the lock, so that a helper between its test of `quit` and its wait cannot miss the signal.)
        let _state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        self.wake.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_job_runs_once_on_any_number_of_threads() {
        for threads in 1..=4 {
            let team: Team<u64, (u64, u64)> = Team::new();
            let work = |x: u64| (x, x * x);
            std::thread::scope(|s| {
                for _ in 1..threads {
                    s.spawn(|| team.serve(&work));
                }
                for step in 0..50u64 {
                    let mut got = team.run((0..step).map(|i| i + 1000 * step), &work);
                    got.sort_unstable();
                    let want: Vec<(u64, u64)> = (0..step).map(|i| i + 1000 * step).map(work).collect();
                    assert_eq!(got, want, "{threads} threads, step {step}");
                }
                team.finish();
            });
        }
    }

    #[test]
    fn helpers_asleep_after_the_spin_wake_for_the_next_step() {
        let team: Team<u32, u32> = Team::new();
        let work = |x: u32| x + 1;
        std::thread::scope(|s| {
            s.spawn(|| team.serve(&work));
            assert_eq!(team.run([1], &work), vec![2]);
            std::thread::sleep(SPIN * 3);
            let mut got = team.run(0..100, &work);
            got.sort_unstable();
            assert_eq!(got, (1..101).collect::<Vec<_>>());
            team.finish();
        });
    }

    #[test]
    fn a_helper_that_panics_passes_the_panic_to_the_caller() {
        let team: Team<u32, u32> = Team::new();
        let work = |x: u32| {
            assert!(x != 7, "job seven");
            x
        };
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            std::thread::scope(|s| {
                struct End<'t>(&'t Team<u32, u32>);
                impl Drop for End<'_> {
                    fn drop(&mut self) {
                        self.0.finish();
                    }
                }
                let _end = End(&team);
                s.spawn(|| team.serve(&work));
                // (Whichever thread takes the seventh job, its panic ends the run here.)
                team.run(0..1000, &work)
            })
        }));
        let message = caught.expect_err("the panic reaches the caller");
        let text = message
            .downcast_ref::<&str>()
            .map(ToString::to_string)
            .or_else(|| message.downcast_ref::<String>().cloned());
        assert_eq!(text.as_deref(), Some("job seven"));
    }
}
