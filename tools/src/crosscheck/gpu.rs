//! The [`Gpu`] of a real NVIDIA device, through cudarc: NVRTC compiles a module, the driver runs it.
//!
//! libcuda and libnvrtc are opened at run time (cudarc's `dynamic-loading`), so this builds with no CUDA
//! installed; [`CudaGpu::open`] turns a missing library or device into one clear sentence.
//!
//! [`serve`] is the GPU side of an isolated cross-check ([`super::isolated`]): a worker process that compiles
//! one job's module, runs its launches and answers one JSON line each. A kernel that does not finish wedges
//! the CUDA context (a synchronize, a free or the context's destruction would wait for it forever), so the
//! worker answers [`Answer::Hung`] and leaves at once, and the parent starts a fresh worker for the rest.

use super::ptx::LaunchArg;
use super::{Answer, Case, Gpu, GpuInfo, GpuRun, Job, LaunchJob};
use cudarc::driver::{
    CudaContext, CudaModule, CudaSlice, CudaStream, CudaView, DevicePtr, LaunchConfig, PushKernelArg,
};
use cudarc::nvrtc::{CompileError, CompileOptions, compile_ptx_with_opts};
use std::io::{BufRead, Write};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long one program may run on the GPU.
pub const LAUNCH_TIMEOUT: Duration = Duration::from_secs(10);

/// How many times each kernel runs: one run's cycles move by a third as its inputs lie near the SM in L2 or far
/// from it (docs/timing.md).
pub const REPEATS: usize = 9;

/// How far apart the runs' buffers start: each run's lie this many words (33 lines of 128 bytes) further into
/// allocations of their own than the run before's, so that the runs' inputs land in different L2 slices
/// (allocations of a few bytes made one after another land next to each other, in the same slices).
const SPREAD_WORDS: usize = 33 * 32;

pub struct CudaGpu {
    ctx: Arc<CudaContext>,
    stream: Arc<CudaStream>,
    info: GpuInfo,
    arch: &'static str,
    /// `sim crosscheck --ptxas` or `WARPSIM_PTXAS`: a ptxas to compile every module's PTX to a cubin with, instead of the driver's JIT (a
    /// newer one than the driver's: ptxas 13.0 miscompiles a comparison, `crosscheck/open/random_314159_3949_ptxas`).
    ptxas: Option<std::path::PathBuf>,
    /// Twice the L2's size, written before every launch's buffers are copied: every launch starts with none of
    /// its data in L2, whatever ran before it (its cycles do not depend on what the same worker ran earlier;
    /// docs/timing.md).
    flush: std::sync::Mutex<CudaSlice<u8>>,
}

/// Why a launch gave no result.
pub enum LaunchError {
    /// It did not finish within [`LAUNCH_TIMEOUT`]: the context is wedged.
    Hung,
    /// CUDA refused or faulted; the context is unusable after it.
    Failed(String),
}

/// `ptxas --version`'s last line (`Build cuda_13.5.r13.5/compiler.…`), or why `ptxas` cannot be run.
fn ptxas_version(ptxas: &std::path::Path) -> Result<String, String> {
    let out = std::process::Command::new(ptxas)
        .arg("--version")
        .output()
        .map_err(|e| format!("WARPSIM_PTXAS: cannot run {}: {e}", ptxas.display()))?;
    let text = String::from_utf8_lossy(&out.stdout);
    match text.lines().rfind(|l| !l.trim().is_empty()) {
        Some(line) if out.status.success() => Ok(line.trim().to_string()),
        _ => Err(format!("WARPSIM_PTXAS: {} --version failed", ptxas.display())),
    }
}

/// `text` compiled by `ptxas` for `arch` (`sm_90`): the cubin's bytes. The files live in a directory of their own
/// that is removed afterwards.
fn assemble(ptxas: &std::path::Path, text: &str, arch: &str) -> Result<Vec<u8>, String> {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("warpsim-ptxas-{}-{n}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| format!("ptxas: cannot create {}: {e}", dir.display()))?;
    let (ptx, cubin) = (dir.join("module.ptx"), dir.join("module.cubin"));
    let result = std::fs::write(&ptx, text)
        .map_err(|e| format!("ptxas: cannot write {}: {e}", ptx.display()))
        .and_then(|()| {
            std::process::Command::new(ptxas)
                .arg(format!("-arch={arch}"))
                .arg("-o")
                .arg(&cubin)
                .arg(&ptx)
                .output()
                .map_err(|e| format!("cannot run {}: {e}", ptxas.display()))
        })
        .and_then(|out| {
            if out.status.success() {
                std::fs::read(&cubin).map_err(|e| format!("ptxas: cannot read {}: {e}", cubin.display()))
            } else {
                Err(format!(
                    "{} could not compile the module:\n{}",
                    ptxas.display(),
                    String::from_utf8_lossy(&out.stderr)
                ))
            }
        });
    let _ = std::fs::remove_dir_all(&dir);
    result
}

impl CudaGpu {
    /// The first CUDA device, or why there is none. `ptxas` (else `WARPSIM_PTXAS`): a ptxas to compile the modules
    /// with instead of the driver's.
    pub fn open(ptxas: Option<std::path::PathBuf>) -> Result<CudaGpu, String> {
        // cudarc panics on a missing library: ask first.
        if !unsafe { cudarc::driver::sys::is_culib_present() } {
            return Err("no CUDA driver: libcuda.so could not be loaded (is the NVIDIA driver installed?)".into());
        }
        if !unsafe { cudarc::nvrtc::sys::is_culib_present() } {
            return Err("no NVRTC: libnvrtc.so could not be loaded (install the CUDA toolkit's NVRTC)".into());
        }
        let ctx = CudaContext::new(0).map_err(|e| format!("no CUDA device: {e}"))?;
        let name = ctx.name().map_err(|e| format!("cannot query the CUDA device: {e}"))?;
        let (major, minor) = ctx
            .compute_capability()
            .map_err(|e| format!("cannot query the CUDA device: {e}"))?;
        let driver = std::fs::read_to_string("/proc/driver/nvidia/version")
            .ok()
            .and_then(|v| {
                // "NVRM version: NVIDIA UNIX … Kernel Module  580.159.04  Release Build …"
                v.lines()
                    .next()?
                    .split_whitespace()
                    .find(|w| w.chars().next().is_some_and(|c| c.is_ascii_digit()) && w.contains('.'))
                    .map(str::to_string)
            })
            .unwrap_or_else(|| "unknown".into());
        let arch: &'static str = Box::leak(format!("compute_{major}{minor}").into_boxed_str());
        let ptxas = ptxas.or_else(|| std::env::var_os("WARPSIM_PTXAS").map(std::path::PathBuf::from));
        let ptxas_version = match &ptxas {
            None => None,
            Some(p) => Some(ptxas_version(p)?),
        };
        let stream = ctx.default_stream();
        let l2 = ctx
            .attribute(cudarc::driver::sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE)
            .map_err(|e| format!("cannot query the CUDA device: {e}"))?;
        let flush = stream
            .alloc_zeros::<u8>(2 * usize::try_from(l2.max(1 << 20)).unwrap_or(1 << 20))
            .map_err(|e| format!("cannot allocate on the CUDA device: {e}"))?;
        Ok(CudaGpu {
            ctx,
            stream,
            flush: std::sync::Mutex::new(flush),
            info: GpuInfo {
                name,
                driver,
                arch: format!("sm_{major}{minor}"),
                ptxas: ptxas_version,
            },
            arch,
            ptxas,
        })
    }

    /// Compile `source` with NVRTC and load it.
    pub fn compile(&self, source: &str) -> Result<Arc<CudaModule>, String> {
        let options = CompileOptions {
            fmad: Some(false),
            prec_div: Some(true),
            prec_sqrt: Some(true),
            ftz: Some(false),
            arch: Some(self.arch),
            ..Default::default()
        };
        let ptx = compile_ptx_with_opts(source, options).map_err(|e| match e {
            CompileError::CompileError { log, .. } => {
                format!("NVRTC could not compile the module:\n{}", log.to_string_lossy())
            }
            other => format!("NVRTC: {other:?}"),
        })?;
        if self.ptxas.is_some() {
            return self.load_ptx(&ptx.to_src());
        }
        self.ctx
            .load_module(ptx)
            .map_err(|e| format!("CUDA could not load the module: {e}"))
    }

    /// Load a PTX module (the driver's JIT compiles it for the device). A module newer than the driver (nvcc
    /// 13.5 writes `.version 9.5`; a CUDA 13.0 driver reads up to 9.0) is loaded with the newest `.version` the
    /// driver accepts: the instructions are the same, only the header changes.
    pub fn load_ptx(&self, text: &str) -> Result<Arc<CudaModule>, String> {
        if let Some(ptxas) = &self.ptxas {
            let cubin = assemble(ptxas, text, &self.info.arch)?;
            return self
                .ctx
                .load_module(cudarc::nvrtc::Ptx::from_binary(cubin))
                .map_err(|e| format!("CUDA could not load the cubin {} made: {e}", ptxas.display()));
        }
        let load = |t: &str| self.ctx.load_module(cudarc::nvrtc::Ptx::from_src(t));
        let first = match load(text) {
            Ok(m) => return Ok(m),
            Err(e) => e,
        };
        let unsupported = first.0 == cudarc::driver::sys::CUresult::CUDA_ERROR_UNSUPPORTED_PTX_VERSION;
        let version = text.lines().find_map(|l| {
            let v = l.trim().strip_prefix(".version")?.trim();
            let (major, minor) = v.split_once('.')?;
            Some((major.parse::<u32>().ok()?, minor.parse::<u32>().ok()?, l))
        });
        if let (true, Some((major, minor, line))) = (unsupported, version) {
            let mut older: Vec<(u32, u32)> = (7..=major)
                .flat_map(|ma| (0..=9).map(move |mi| (ma, mi)))
                .filter(|&v| v < (major, minor))
                .collect();
            older.reverse();
            for (ma, mi) in older {
                let t = text.replacen(line, &format!(".version {ma}.{mi}"), 1);
                if let Ok(m) = load(&t) {
                    return Ok(m);
                }
            }
        }
        Err(format!("CUDA could not load the PTX: {first}"))
    }

    /// The module of `job`: its PTX loaded, or its CUDA compiled.
    pub fn module(&self, job: &Job) -> Result<Arc<CudaModule>, String> {
        match &job.ptx {
            Some(text) => self.load_ptx(text),
            None => self.compile(&job.source),
        }
    }

    /// Run one kernel of `module` [`REPEATS`] times and read its buffers back, each run within
    /// [`LAUNCH_TIMEOUT`]: the buffers and block clocks of the first run, and every run's longest block (the
    /// report's figure is their [`typical_span`](super::typical_span)). Each run has buffers of its own, their
    /// data [`SPREAD_WORDS`] further in than the run before's (the earlier runs' are kept until the last is
    /// done), so that the runs see the inputs in different L2 slices (docs/timing.md).
    pub fn launch(&self, module: &Arc<CudaModule>, job: &LaunchJob) -> Result<GpuRun, LaunchError> {
        let f = module
            .load_function(&job.kernel)
            .map_err(|e| LaunchError::Failed(format!("kernel `{}` not found: {e}", job.kernel)))?;
        let mut kept = Vec::with_capacity(REPEATS);
        let mut runs = Vec::with_capacity(REPEATS);
        for r in 0..REPEATS {
            match self.launch_once(&f, job, r) {
                Ok((run, buffers)) => {
                    runs.push(run);
                    kept.push(buffers);
                }
                Err(e) => {
                    // After a hung run nothing may be freed (a free would wait for the kernel); after a
                    // failure the context is unusable anyway.
                    std::mem::forget(kept);
                    return Err(e);
                }
            }
        }
        let spans: Vec<u64> = runs.iter().map(GpuRun::span).collect();
        let mut first = runs.swap_remove(0);
        first.runs = spans;
        Ok(first)
    }

    /// One run of `f`: its result and its device buffers (for the caller to keep or drop).
    fn launch_once(
        &self,
        f: &cudarc::driver::CudaFunction,
        job: &LaunchJob,
        run: usize,
    ) -> Result<(GpuRun, Vec<CudaSlice<u32>>), LaunchError> {
        let failed = |e: cudarc::driver::DriverError| LaunchError::Failed(format!("CUDA: {e}"));
        {
            let mut flush = self.flush.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            self.stream.memset_zeros(&mut *flush).map_err(failed)?;
        }
        // Run `run`'s buffers start `run` × SPREAD_WORDS words into allocations of their own.
        let offset = run * SPREAD_WORDS;
        let buffers: Vec<CudaSlice<u32>> = job
            .buffers
            .iter()
            .map(|b| {
                let mut s = self.stream.alloc_zeros::<u32>((offset + b.len()).max(1))?;
                self.stream.memcpy_htod(b, &mut s.slice_mut(offset..offset + b.len()))?;
                Ok(s)
            })
            .collect::<Result<_, _>>()
            .map_err(failed)?;
        let views: Vec<CudaView<u32>> = buffers
            .iter()
            .zip(&job.buffers)
            .map(|(s, b)| s.slice(offset..offset + b.len()))
            .collect();
        let blocks = job.grid.iter().map(|&n| u64::from(n)).product::<u64>();
        let start: Vec<u64> = (0..blocks).flat_map(|_| [u64::MAX, 0]).collect();
        let mut clocks = self.stream.clone_htod(&start).map_err(failed)?;
        let mut args = self.stream.launch_builder(f);
        // A PTX kernel's own parameters (values kept alive until the launch).
        let (mut small8, mut small16, mut words, mut longs) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        let mut addrs: Vec<u64> = Vec::new();
        let zero = 0u32;
        match &job.args {
            None => {
                for b in &views {
                    args.arg(b);
                }
                args.arg(&mut clocks);
                // `warpsim_zero`: 0, unknown to the compiler (see `emit_cuda::member_mask`).
                args.arg(&zero);
            }
            Some(list) => {
                // Scalars first into stable storage, then the arguments in order.
                for a in list {
                    match a {
                        LaunchArg::U8(v) => small8.push(*v),
                        LaunchArg::U16(v) => small16.push(*v),
                        LaunchArg::U32(v) => words.push(*v),
                        LaunchArg::U64(v) => longs.push(*v),
                        LaunchArg::Buffer(_) => {}
                    }
                }
                let (mut i8_, mut i16_, mut i32_, mut i64_) = (0, 0, 0, 0);
                let ptrs: Vec<u64> = views.iter().map(|b| b.device_ptr(&self.stream).0).collect();
                for a in list {
                    if let LaunchArg::Buffer(k) = a {
                        addrs.push(
                            *ptrs
                                .get(*k)
                                .ok_or_else(|| LaunchError::Failed(format!("no buffer {k}")))?,
                        );
                    }
                }
                let mut ia = 0;
                for a in list {
                    match a {
                        LaunchArg::Buffer(_) => {
                            args.arg(&addrs[ia]);
                            ia += 1;
                        }
                        LaunchArg::U8(_) => {
                            args.arg(&small8[i8_]);
                            i8_ += 1;
                        }
                        LaunchArg::U16(_) => {
                            args.arg(&small16[i16_]);
                            i16_ += 1;
                        }
                        LaunchArg::U32(_) => {
                            args.arg(&words[i32_]);
                            i32_ += 1;
                        }
                        LaunchArg::U64(_) => {
                            args.arg(&longs[i64_]);
                            i64_ += 1;
                        }
                    }
                }
                args.arg(&mut clocks);
            }
        }
        let config = LaunchConfig {
            grid_dim: (job.grid[0], job.grid[1], job.grid[2]),
            block_dim: (job.block[0], job.block[1], job.block[2]),
            shared_mem_bytes: job.dynamic_shared_bytes,
        };
        // SAFETY: the kernel's parameters are the buffers (u32 words, in order), the clock array and
        // `warpsim_zero`, as `emit_cuda` declares them; every buffer has the length the program declares.
        unsafe { args.launch(config) }.map_err(failed)?;
        // A kernel that deadlocks would block a plain synchronize forever: wait with a deadline.
        let done = self.stream.record_event(None).map_err(failed)?;
        let deadline = Instant::now() + LAUNCH_TIMEOUT;
        while !done.try_is_complete().map_err(failed)? {
            if Instant::now() > deadline {
                // Nothing of this launch may be dropped now: freeing its memory would wait for the kernel.
                std::mem::forget(buffers);
                std::mem::forget(clocks);
                std::mem::forget(done);
                return Err(LaunchError::Hung);
            }
            std::thread::sleep(Duration::from_micros(20));
        }
        let out: Vec<Vec<u32>> = views
            .iter()
            .map(|b| self.stream.clone_dtoh(b))
            .collect::<Result<_, _>>()
            .map_err(failed)?;
        let c = self.stream.clone_dtoh(&clocks).map_err(failed)?;
        let run = GpuRun {
            buffers: out,
            clocks: c.chunks(2).map(|p| (p[0], p[1])).collect(),
            runs: Vec::new(),
        };
        Ok((run, buffers))
    }
}

impl Gpu for CudaGpu {
    fn info(&self) -> &GpuInfo {
        &self.info
    }

    fn run(&mut self, cases: &[&Case]) -> Result<Vec<Result<GpuRun, String>>, String> {
        let module = self.module(&Job::of(cases))?;
        let mut out = Vec::with_capacity(cases.len());
        for case in cases {
            let r = self.launch(&module, &LaunchJob::of(case)).map_err(|e| match e {
                LaunchError::Hung => super::hang_message(),
                LaunchError::Failed(e) => e,
            });
            // A launch error is sticky: the context is unusable after it, so stop here.
            let fatal = r.is_err();
            out.push(r);
            if fatal {
                while out.len() < cases.len() {
                    out.push(Err("not run: an earlier launch failed".into()));
                }
                break;
            }
        }
        Ok(out)
    }
}

/// The worker process (`sim crosscheck-worker`): open the GPU and answer [`Answer::Info`] (or say why there is
/// none on stderr and return 2); then read one [`Job`] from `input` (none: return 0), compile it and run its
/// launches, one answer line each. Returns the process's exit status; after a hung kernel it does not
/// return but exits at once (the wedged context must not be destroyed).
pub fn serve(input: impl BufRead, mut output: impl Write, ptxas: Option<std::path::PathBuf>) -> i32 {
    let gpu = match CudaGpu::open(ptxas) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    // The context is never dropped (its destruction after a failed launch could block).
    let gpu = std::mem::ManuallyDrop::new(gpu);
    let mut say = |a: &Answer| {
        let line = serde_json::to_string(a).unwrap_or_default();
        writeln!(output, "{line}").and_then(|()| output.flush()).is_ok()
    };
    if !say(&Answer::Info(gpu.info.clone())) {
        return 1;
    }
    let job: Job = match serde_json::from_reader(input) {
        Ok(j) => j,
        Err(e) if e.is_eof() => return 0,
        Err(e) => {
            eprintln!("error: bad job for the GPU worker: {e}");
            return 2;
        }
    };
    let module = match gpu.module(&job) {
        Ok(m) => m,
        Err(e) => {
            say(&Answer::ModuleFailed { error: e });
            return 0;
        }
    };
    say(&Answer::Compiled);
    for (index, l) in job.launches.iter().enumerate() {
        match gpu.launch(&module, l) {
            Ok(run) => {
                if !say(&Answer::Ran { index, run }) {
                    return 1;
                }
            }
            Err(LaunchError::Hung) => {
                say(&Answer::Hung { index });
                std::process::exit(3);
            }
            Err(LaunchError::Failed(error)) => {
                say(&Answer::Failed { index, error });
                std::process::exit(4);
            }
        }
    }
    0
}

#[cfg(test)]
mod tests {
    use super::{assemble, ptxas_version};
    use std::os::unix::fs::PermissionsExt;

    /// A stand-in for ptxas: a shell script in a directory of its own.
    fn fake(name: &str, body: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("warpsim-fake-ptxas-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a directory");
        let path = dir.join("ptxas");
        std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).expect("the script");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("executable");
        path
    }

    #[test]
    fn a_chosen_ptxas_compiles_the_module_and_its_errors_are_reported() {
        // `-arch=sm_90 -o OUT IN`: this one writes the architecture and the PTX it was given.
        let ok = fake(
            "ok",
            "case \"$1\" in --version) echo 'ptxas: NVIDIA (R) Ptx optimizing assembler'; \
             echo 'Build cuda_13.5.r13.5/compiler.1_0';; *) { echo \"$1\"; cat \"$4\"; } > \"$3\";; esac",
        );
        assert_eq!(
            ptxas_version(&ok).expect("a version"),
            "Build cuda_13.5.r13.5/compiler.1_0"
        );
        let cubin = assemble(&ok, ".version 9.0\n", "sm_90").expect("compiled");
        assert_eq!(String::from_utf8(cubin).expect("text"), "-arch=sm_90\n.version 9.0\n");
        let bad = fake("bad", "echo 'ptxas fatal : Unsupported .version 9.9' >&2; exit 1");
        let e = assemble(&bad, ".version 9.9\n", "sm_90").expect_err("refused");
        assert!(
            e.ends_with("could not compile the module:\nptxas fatal : Unsupported .version 9.9\n"),
            "{e}"
        );
        assert!(ptxas_version(&bad).is_err());
        let missing = std::path::Path::new("/nonexistent/ptxas");
        assert!(
            ptxas_version(missing)
                .expect_err("none")
                .contains("cannot run /nonexistent/ptxas")
        );
        for p in [ok, bad] {
            let _ = std::fs::remove_dir_all(p.parent().expect("its directory"));
        }
    }
}
