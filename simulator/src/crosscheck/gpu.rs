//! The [`Gpu`] of a real NVIDIA device, through cudarc: NVRTC compiles a module, the driver runs it.
//!
//! libcuda and libnvrtc are opened at run time (cudarc's `dynamic-loading`), so this builds with no CUDA
//! installed; [`CudaGpu::open`] turns a missing library or device into one clear sentence.

use super::{Case, Gpu, GpuInfo, GpuRun, module_source};
use cudarc::driver::{CudaContext, CudaSlice, CudaStream, LaunchConfig, PushKernelArg};
use cudarc::nvrtc::{CompileError, CompileOptions, compile_ptx_with_opts};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long one program may run on the GPU.
pub const LAUNCH_TIMEOUT: Duration = Duration::from_secs(10);

pub struct CudaGpu {
    ctx: Arc<CudaContext>,
    stream: Arc<CudaStream>,
    info: GpuInfo,
    arch: &'static str,
}

impl CudaGpu {
    /// The first CUDA device, or why there is none.
    pub fn open() -> Result<CudaGpu, String> {
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
        let stream = ctx.default_stream();
        Ok(CudaGpu {
            ctx,
            stream,
            info: GpuInfo {
                name,
                driver,
                arch: format!("sm_{major}{minor}"),
            },
            arch,
        })
    }

    fn launch(&self, module: &Arc<cudarc::driver::CudaModule>, case: &Case) -> Result<GpuRun, String> {
        let k = &case.kernel;
        let f = module
            .load_function(&case.cuda.name)
            .map_err(|e| format!("kernel `{}` not found: {e}", case.cuda.name))?;
        let err = |e: cudarc::driver::DriverError| format!("CUDA: {e}");
        let mut buffers: Vec<CudaSlice<u32>> = k
            .buffers
            .iter()
            .map(|b| self.stream.clone_htod(&b.data))
            .collect::<Result<_, _>>()
            .map_err(err)?;
        let start: Vec<u64> = (0..k.grid).flat_map(|_| [u64::MAX, 0]).collect();
        let mut clocks = self.stream.clone_htod(&start).map_err(err)?;
        let mut args = self.stream.launch_builder(&f);
        for b in &mut buffers {
            args.arg(b);
        }
        args.arg(&mut clocks);
        let config = LaunchConfig {
            grid_dim: (k.grid, 1, 1),
            block_dim: (k.block, 1, 1),
            shared_mem_bytes: case.cuda.dynamic_shared_bytes,
        };
        // SAFETY: the kernel's parameters are the buffers (u32 words, in order) and the clock array, as
        // `emit_cuda` declares them; every buffer has the length the program declares.
        unsafe { args.launch(config) }.map_err(err)?;
        // A kernel that deadlocks would block a plain synchronize forever: wait with a deadline.
        let done = self.stream.record_event(None).map_err(err)?;
        let deadline = Instant::now() + LAUNCH_TIMEOUT;
        while !done.try_is_complete().map_err(err)? {
            if Instant::now() > deadline {
                return Err(format!(
                    "did not finish on the GPU within {} s (a deadlock?); the GPU context is unusable after this",
                    LAUNCH_TIMEOUT.as_secs()
                ));
            }
            std::thread::yield_now();
        }
        let out: Vec<Vec<u32>> = buffers
            .iter()
            .map(|b| self.stream.clone_dtoh(b))
            .collect::<Result<_, _>>()
            .map_err(err)?;
        let c = self.stream.clone_dtoh(&clocks).map_err(err)?;
        Ok(GpuRun {
            buffers: out,
            clocks: c.chunks(2).map(|p| (p[0], p[1])).collect(),
        })
    }
}

impl Gpu for CudaGpu {
    fn info(&self) -> &GpuInfo {
        &self.info
    }

    fn run(&mut self, cases: &[&Case]) -> Result<Vec<Result<GpuRun, String>>, String> {
        let source = module_source(cases);
        let options = CompileOptions {
            fmad: Some(false),
            prec_div: Some(true),
            prec_sqrt: Some(true),
            ftz: Some(false),
            arch: Some(self.arch),
            ..Default::default()
        };
        let ptx = compile_ptx_with_opts(&source, options).map_err(|e| match e {
            CompileError::CompileError { log, .. } => {
                format!("NVRTC could not compile the module:\n{}", log.to_string_lossy())
            }
            other => format!("NVRTC: {other:?}"),
        })?;
        let module = self
            .ctx
            .load_module(ptx)
            .map_err(|e| format!("CUDA could not load the module: {e}"))?;
        let mut out = Vec::with_capacity(cases.len());
        for case in cases {
            let r = self.launch(&module, case);
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
