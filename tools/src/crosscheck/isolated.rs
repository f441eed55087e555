//! The cross-check's GPU side in worker processes, so that nothing a program does on the GPU can stop a batch.
//!
//! A kernel that does not finish wedges its CUDA context: every later call on it (a copy, a free, the
//! context's destruction) waits for the kernel forever. So each module runs in a worker process of its own
//! (`sim crosscheck-worker`, [`super::gpu::serve`]), which answers one JSON line per launch ([`Answer`]).
//! The parent reads the answers with deadlines: a worker that reports a hung kernel, fails a launch, dies
//! or stops answering is killed, the program it was running is reported (a hang, by name), and a fresh
//! worker compiles and runs the rest of the module. Several workers run at once (each compiles its own
//! module: NVRTC and the driver's PTX compiler are what a large batch spends its time on); kernels from
//! different processes share the GPU by time slices, not concurrently.

use super::{Answer, Case, GpuInfo, Job, ProgramReport, compare, hang_message, modules};
use std::ffi::OsString;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

/// How to start workers and how long to wait for them.
#[derive(Clone, Debug)]
pub struct Workers {
    /// The worker's command line (program and arguments).
    pub command: Vec<OsString>,
    /// Workers at once.
    pub parallel: usize,
    /// The longest wait for a worker's device line and for its module to compile.
    pub compile_timeout: Duration,
    /// The longest wait for one launch's answer (the worker's own watchdog is shorter).
    pub launch_timeout: Duration,
}

/// A running worker: its process and its answers, read on a thread of their own.
struct Worker {
    child: Child,
    lines: mpsc::Receiver<String>,
    stderr: mpsc::Receiver<String>,
}

impl Worker {
    fn start(command: &[OsString], job: Option<&Job>) -> Result<Worker, String> {
        let (program, args) = command.split_first().ok_or("no worker command")?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start the GPU worker `{}`: {e}", program.to_string_lossy()))?;
        let stdin = child.stdin.take();
        let text = job.map(|j| serde_json::to_string(j).unwrap_or_default());
        // Written on a thread: a large job must not block the reader of the answers.
        std::thread::spawn(move || {
            if let (Some(mut stdin), Some(text)) = (stdin, text) {
                let _ = stdin.write_all(text.as_bytes());
            }
        });
        let stdout = child.stdout.take().ok_or("no worker stdout")?;
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut err = child.stderr.take().ok_or("no worker stderr")?;
        let (etx, stderr) = mpsc::channel();
        std::thread::spawn(move || {
            let mut s = String::new();
            let _ = err.read_to_string(&mut s);
            let _ = etx.send(s);
        });
        Ok(Worker { child, lines, stderr })
    }

    /// The next answer, `Ok(None)` when the worker closed its output, `Err` after `timeout`.
    fn next(&self, timeout: Duration) -> Result<Option<Answer>, ()> {
        match self.lines.recv_timeout(timeout) {
            Ok(line) => Ok(Some(serde_json::from_str(&line).unwrap_or(Answer::ModuleFailed {
                error: format!("the GPU worker said something unexpected: {line}"),
            }))),
            Err(mpsc::RecvTimeoutError::Disconnected) => Ok(None),
            Err(mpsc::RecvTimeoutError::Timeout) => Err(()),
        }
    }

    /// Stop the worker (killed if it is still there) and return the first line of what it said on stderr.
    fn stop(mut self) -> (Option<i32>, String) {
        let _ = self.child.kill();
        let status = self.child.wait().ok().and_then(|s| s.code());
        // A process the worker started could hold its stderr open: wait for the text a moment, no longer.
        let err = self.stderr.recv_timeout(Duration::from_secs(2)).unwrap_or_default();
        (
            status,
            err.lines()
                .next()
                .unwrap_or("")
                .trim_start_matches("error: ")
                .to_string(),
        )
    }
}

impl Workers {
    /// The GPU the workers see, or why there is none (the worker's own one-line reason).
    pub fn info(&self) -> Result<GpuInfo, String> {
        let w = Worker::start(&self.command, None)?;
        let answer = w.next(self.compile_timeout);
        let (status, err) = w.stop();
        match answer {
            Ok(Some(Answer::Info(i))) => Ok(i),
            Err(()) => Err(format!(
                "the GPU worker did not answer within {} s",
                self.compile_timeout.as_secs()
            )),
            _ if !err.is_empty() => Err(err),
            _ => Err(format!("the GPU worker exited without a word (status {status:?})")),
        }
    }

    /// Run every case on the GPU and compare it; `done` is called (from one thread at a time) with the
    /// results so far after every module. The result is in `cases` order.
    pub fn run(&self, cases: &[Case], done: &(dyn Fn(&[Option<ProgramReport>]) + Sync)) -> Vec<ProgramReport> {
        let chunks = modules(cases);
        let results: Mutex<Vec<Option<ProgramReport>>> = Mutex::new(vec![None; cases.len()]);
        let next = AtomicUsize::new(0);
        std::thread::scope(|s| {
            for _ in 0..self.parallel.max(1).min(chunks.len()) {
                s.spawn(|| {
                    loop {
                        let c = next.fetch_add(1, Ordering::Relaxed);
                        let Some(&(first, chunk)) = chunks.get(c) else { break };
                        let reports = self.run_module(chunk);
                        let mut all = results.lock().unwrap_or_else(PoisonError::into_inner);
                        for (k, r) in reports.into_iter().enumerate() {
                            all[first + k] = Some(r);
                        }
                        done(&all);
                    }
                });
            }
        });
        results
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner)
            .into_iter()
            .zip(cases)
            .map(|(r, c)| r.unwrap_or_else(|| ProgramReport::failed(&c.name, "not run".into())))
            .collect()
    }

    /// One module's cases, with a fresh worker after each one that hangs or fails.
    fn run_module(&self, cases: &[Case]) -> Vec<ProgramReport> {
        let mut out: Vec<Option<ProgramReport>> = vec![None; cases.len()];
        let mut start = 0;
        while start < cases.len() {
            let rest: Vec<&Case> = cases[start..].iter().collect();
            let job = Job::of(&rest);
            let worker = match Worker::start(&self.command, Some(&job)) {
                Ok(w) => w,
                Err(e) => {
                    for (k, c) in cases.iter().enumerate().skip(start) {
                        out[k] = Some(ProgramReport::failed(&c.name, e.clone()));
                    }
                    break;
                }
            };
            // The first case of `rest` without an answer.
            let pending = |out: &[Option<ProgramReport>]| (start..cases.len()).find(|&k| out[k].is_none());
            let mut compiled = false;
            let mut died = None;
            let restart_at = loop {
                let timeout = if compiled {
                    self.launch_timeout
                } else {
                    self.compile_timeout
                };
                match worker.next(timeout) {
                    Ok(Some(Answer::Info(_))) => {}
                    Ok(Some(Answer::Compiled)) => compiled = true,
                    Ok(Some(Answer::ModuleFailed { error })) => {
                        for k in start..cases.len() {
                            out[k] = Some(ProgramReport::failed(&cases[k].name, error.clone()));
                        }
                        break cases.len();
                    }
                    Ok(Some(Answer::Ran { index, run })) => {
                        if let Some(case) = cases.get(start + index) {
                            out[start + index] = Some(compare(case, &run));
                        }
                    }
                    Ok(Some(Answer::Hung { index })) => {
                        out[start + index] = Some(ProgramReport::failed(&cases[start + index].name, hang_message()));
                        break start + index + 1;
                    }
                    Ok(Some(Answer::Failed { index, error })) => {
                        out[start + index] = Some(ProgramReport::failed(&cases[start + index].name, error));
                        break start + index + 1;
                    }
                    Ok(None) => {
                        // The worker is gone: done, or it died on the first case without an answer.
                        match pending(&out) {
                            None => break cases.len(),
                            Some(k) => {
                                died = Some(k);
                                break k + 1;
                            }
                        }
                    }
                    Err(()) => {
                        // No answer in time: a compilation or a launch that never returns.
                        let k = pending(&out).unwrap_or(cases.len() - 1);
                        let why = if compiled {
                            hang_message()
                        } else {
                            format!(
                                "the GPU worker did not compile the module within {} s",
                                self.compile_timeout.as_secs()
                            )
                        };
                        out[k] = Some(ProgramReport::failed(&cases[k].name, why));
                        break k + 1;
                    }
                }
            };
            let (status, err) = worker.stop();
            if let Some(k) = died {
                let why = if err.is_empty() {
                    format!("the GPU worker died (status {status:?})")
                } else {
                    format!("the GPU worker died: {err}")
                };
                out[k] = Some(ProgramReport::failed(&cases[k].name, why));
            }
            start = restart_at;
        }
        out.into_iter()
            .zip(cases)
            .map(|(r, c)| r.unwrap_or_else(|| ProgramReport::failed(&c.name, "not run".into())))
            .collect()
    }
}
