#!/usr/bin/env bash
# Capture the model zoo on a CUDA GPU and pack it for tests/corpus/<platform>/.
#
#   OUT=/some/dir benchmarks/capture_corpus.sh [SECONDS]
#
# Captures every zoo model at small size in default and max-autotune-no-cudagraphs, and the LARGE
# models (benchmarks/capture_corpus.py) at large size in default mode; no capture starts after
# SECONDS (default 330), so the run ends in bounded time. Large sizes are not captured in
# max-autotune: its GEMM template search at those shapes alone would exceed one 10-minute device
# command. One capture failing never stops the others; every capture has a log.
# Result: $OUT/corpus.tar.gz (unpack into tests/corpus/) and $OUT/capture.log.
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/kernelopt-corpus-out}
SECONDS_LEFT=${1:-330}
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1
export TORCHINDUCTOR_CACHE_DIR=/tmp/kernelopt-inductor-cache  # fresh: every kernel compiled and tuned here

PLATFORM=$(python3 -c "import torch; v='.'.join(torch.__version__.split('.')[:2]); \
g=torch.cuda.get_device_name().split()[-1].lower(); print(f'cuda-{v}-{g}')" 2>/dev/null || echo cuda-unknown)
WORK=/tmp/kernelopt-corpus/$PLATFORM
mkdir -p "$WORK"
{
  echo "platform $PLATFORM, $(date -u +%FT%TZ)"
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader || true
  python3 -c "import torch, triton; print('torch', torch.__version__, 'triton', triton.__version__)"
  python3 benchmarks/capture_corpus.py run --device cuda --out "$WORK" --jobs 5 --compile-threads 3 \
      --deadline "$SECONDS_LEFT" --timeout 200
  du -sh "$WORK"
} 2>&1 | tee "$OUT/capture.log"
# The per-capture logs travel inside the tar; inductor caches and locks do not.
rm -f "$WORK/logs/.gpu.lock"
tar -czf "$OUT/corpus.tar.gz" -C /tmp/kernelopt-corpus "$PLATFORM"
ls -la "$OUT"
