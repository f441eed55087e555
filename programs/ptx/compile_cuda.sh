#!/bin/bash
# Regenerate the nvcc PTX of programs/ptx/cuda/*.cu: NAME.O3.ptx (-O3 -lineinfo) and NAME.G.ptx (-G), for sm_90.
# nvcc 13.5 from pip, no GPU needed:
#   python3 -m venv /tmp/venv-ptx
#   /tmp/venv-ptx/bin/pip install nvidia-cuda-nvcc nvidia-cuda-runtime nvidia-cuda-cccl
# (cccl provides <nv/target>, needed by cuda_fp16.h, cooperative_groups and cuda/atomic).
# -G overrides -lineinfo (nvcc warns if both are given), so the -G builds omit -lineinfo; -G PTX has .loc anyway.
# Usage: programs/ptx/compile_cuda.sh [NAME ...]   (default: every .cu)
set -e
NVCC=${NVCC:-/tmp/venv-ptx/lib/python3.11/site-packages/nvidia/cu13/bin/nvcc}
cd "$(dirname "$0")/cuda"
if [ $# -eq 0 ]; then set -- *.cu; fi
for f in "$@"; do
  n=${f%.cu}
  # A first line `// nvcc: FLAGS` adds FLAGS to both builds (w45: -use_fast_math).
  flags=$(sed -n '1s|^// nvcc: ||p' "$n.cu")
  nice -n 19 "$NVCC" -ptx -arch=sm_90 -lineinfo -O3 $flags "$n.cu" -o "$n.O3.ptx"
  nice -n 19 "$NVCC" -ptx -arch=sm_90 -G $flags "$n.cu" -o "$n.G.ptx"
done
