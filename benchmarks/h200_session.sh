#!/usr/bin/env bash
# One device session on the H200: every GPU measurement the issues ask for, each step with its own time
# limit, so a failing step never costs the others. Results land in $OUT/results.tgz (re-packed after every
# step, so a run stopped at its limit still returns what finished) and $OUT/summary.txt.
#
#   bash benchmarks/h200_session.sh [STEP ...]     (default: all steps; carry .whl for lark/openai)
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/kernelopt-out}
RES=$(mktemp -d)
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1 KERNELOPT_CACHE_DIR=$RES/cache
if [ -d .whl ]; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl
  export PYTHONPATH=/tmp/site${PYTHONPATH:+:$PYTHONPATH}
fi
python3 -m pip install -q --no-index --no-deps --no-build-isolation -e . >"$RES/install.log" 2>&1 || tail -5 "$RES/install.log"
python3 -c "import torch, triton, kernelopt.ir; print('gpu', torch.cuda.get_device_name(), 'torch', torch.__version__, 'triton', triton.__version__)" | tee "$OUT/summary.txt"

step() {  # step NAME SECONDS COMMAND...
  local name=$1 limit=$2; shift 2
  local start=$SECONDS
  timeout --kill-after=10 "$limit" "$@" >"$RES/$name.log" 2>&1
  local rc=$?
  echo "$name rc=$rc $((SECONDS - start))s" | tee -a "$OUT/summary.txt"
  tail -n 25 "$RES/$name.log"
  tar czf "$OUT/results.tgz" -C "$RES" --exclude=cache . 2>/dev/null
}

STEPS="$*"
want() { [ -z "$STEPS" ] || [[ " $STEPS " == *" $1 "* ]]; }   # no arguments: every step
want ceilings && step ceilings 60 python3 benchmarks/measure_ceilings.py --out "$RES/ceilings.json"
want templates && step templates 120 python3 benchmarks/templates_gpu.py --out "$RES/templates.json"
# The depthwise template against cuDNN alone (~30 s; part of `templates`, so only when named).
[ -n "$STEPS" ] && want depthwise && step depthwise 90 python3 benchmarks/templates_gpu.py --only depthwise --out "$RES/depthwise.json"
want optimize_ce && step optimize_ce 190 python3 -m kernelopt.cli optimize tests/zoo/cross_entropy.py --size large \
  --proposers retune,templates --gpu-seconds 60 --max-candidates 8 -o "$RES/ce_opt/cross_entropy_opt.py" --report "$RES/ce_report"
[ -f benchmarks/emit_identity.py ] && want emit && step emit 200 python3 benchmarks/emit_identity.py --device cuda --rounds 5 --out "$RES/emit_identity.json"
want emit_rerun && step emit_rerun 90 python3 benchmarks/emit_identity.py --device cuda --rounds 5 \
  --only conv_bn_relu,depthwise_conv,groupnorm_silu,gpt2,vit,ln_gelu --out "$RES/emit_identity_rerun.json"
want emit_direct && step emit_direct 120 env KERNELOPT_LAUNCH=direct python3 benchmarks/emit_identity.py --device cuda \
  --rounds 5 --only rmsnorm,softmax,transformer_block,conv_bn_relu --out "$RES/emit_identity_direct.json"
# Plain output modules (no manifest): the emitted module autotunes at its first call, as Inductor's does.
# EMIT_ONLY narrows it to some models (a rerun of the close ones with more rounds: EMIT_ROUNDS).
want emit_plain && step emit_plain "${EMIT_LIMIT:-400}" python3 benchmarks/emit_identity.py --device cuda \
  --rounds "${EMIT_ROUNDS:-5}" --plain ${EMIT_ONLY:+--only "$EMIT_ONLY"} --out "$RES/emit_identity_plain.json"
want ce_sweep && step ce_sweep 70 python3 benchmarks/ce_sweep.py --out "$RES/ce_sweep.json"
# The zoo end to end (issue 8) in shards that fit one 10-minute command; resumable: each model's result
# lands in $RES/zoo/<model>.json. ZOO_MODELS picks the shard (default: the Triton-only models first).
want zoo && step zoo "${ZOO_LIMIT:-540}" python3 benchmarks/zoo_suite.py --models "${ZOO_MODELS:-cross_entropy,softmax,rmsnorm,kl_div,zloss}" \
  --gpu-seconds "${ZOO_GPU_SECONDS:-60}" --out-dir "$RES"
want profile && step profile 100 python3 benchmarks/profile_check.py --device cuda --out "$RES/profile_check.json"
want legality && step legality 130 python3 benchmarks/legality_suite.py --device cuda --large 4096x32000 --out "$RES/legality_suite.cuda.md"
# Issue 20 item 3: reorder-only retunes of 5 reductions on 10^7-element outputs, each through the gate on 20
# random seeds + the realistic and adversarial cases (accept), and with one element off by 1e-3 (reject).
want legality_reorder && step legality_reorder 420 python3 benchmarks/legality_suite.py --device cuda --skip-suite \
  --reorder 1e7 --reorder-seeds 20 --out "$RES/legality_reorder.cuda.md"
# Why one emitted module is slower than its original (cubins, registers, graph-replay vs launch timing).
want kernel_diff && step kernel_diff 70 python3 benchmarks/kernel_diff.py tests/corpus/cuda-2.11-h200/ln_gelu/large.default \
  --out "$RES/kernel_diff_ln_gelu.json"
# One general problem captured in one mode, then kernel_diff on it: why its emitted module (no rewrite) is
# slower than Inductor's (DIFF_PROBLEM, DIFF_MODE; only when named).
[ -n "$STEPS" ] && want diff_capture && step diff_capture "${DIFF_LIMIT:-150}" bash -c "python3 -m kernelopt.cli capture \
  benchmarks/general_problems/${DIFF_PROBLEM:-exclusive_cumsum}.py --mode ${DIFF_MODE:-max-autotune-no-cudagraphs} --device cuda \
  --store-tensors no -o $RES/diff_capture && python3 benchmarks/kernel_diff.py $RES/diff_capture --out $RES/kernel_diff.json"
# Issue 21 item 5: a training step (forward + backward + AdamW) through torch.compile(backend="kernelopt") against
# the best Inductor mode at the zoo's large sizes, and 50 steps' losses compared (only when named).
# TRAINING_MODELS picks models, TRAINING_GPU_SECONDS the backend's search budget per graph, TRAINING_LIMIT the step's limit.
[ -n "$STEPS" ] && want backend_training && step backend_training "${TRAINING_LIMIT:-500}" python3 benchmarks/backend_training.py \
  --models "${TRAINING_MODELS:-transformer_block,mlp,ln_gelu,rmsnorm}" --gpu-seconds "${TRAINING_GPU_SECONDS:-20}" \
  --out "$RES/backend_training.json"
# Issue 21's warm start: a restarted process's first call through torch.compile with KernelOPT's cache filled,
# against Inductor's own warm start (fresh cache folders per variant; only when named). WARM_PROFILE=1 adds a
# profiled start per variant (where the time went: <json>.<model>.<variant>.prof.txt). WARM_STARTS (default 3):
# timed restarts per variant, alternating; the median counts and the table gives the pairwise range.
[ -n "$STEPS" ] && want warm_start && step warm_start "${WARM_LIMIT:-420}" python3 benchmarks/backend_warm_start.py \
  --models "${WARM_MODELS:-mlp,rmsnorm,ln_gelu,softmax}" ${WARM_PROFILE:+--profile} ${WARM_STARTS:+--warm-starts $WARM_STARTS} \
  --budget-s $(( ${WARM_LIMIT:-420} - 40 )) \
  --out "$RES/backend_warm_start.json"
# Issue 19: every general problem's Inductor kernels against their bandwidth floor (which have room), one
# command; resumable through $RES/floor_census.jsonl (copy it back to resume). CENSUS_MODE=max-autotune-no-cudagraphs
# captures each problem in that mode first (about a dozen problems per command). Only when named.
[ -n "$STEPS" ] && want floor_census && step floor_census "${CENSUS_LIMIT:-400}" python3 benchmarks/floor_census.py \
  --out "$RES/floor_census.jsonl" --table "$RES/floor_census.md" --budget-s "$(( ${CENSUS_LIMIT:-400} - 40 ))" \
  ${CENSUS_PROBLEMS:+--problems "$CENSUS_PROBLEMS"} ${CENSUS_MODE:+--mode "$CENSUS_MODE"}
# The unit tests that need a GPU (skipped in CI): CUDA-graph replay, first-call autotune, the torch.compile
# backend's GPU paths. Only when named; GPU_TESTS narrows it (a pytest -k expression).
# GPU_TESTS_ALL=1: run past the first failure (each failure then reported, not only the first).
[ -n "$STEPS" ] && want gpu_tests && step gpu_tests "${GPU_TESTS_LIMIT:-300}" python3 -m pytest -q $([ -n "${GPU_TESTS_ALL:-}" ] || echo -x) -p no:cacheprovider \
  tests/unit/test_graph_replay_gpu.py tests/unit/test_capture_parking_gpu.py tests/unit/test_emit_autotune.py tests/unit/test_dynamo_backend.py \
  tests/unit/test_dynamo_backend_training.py tests/unit/test_dynamo_backend_gpu.py tests/unit/test_store_remap_gpu.py tests/unit/test_pin_config_gpu.py \
  tests/unit/test_profile_device_time.py ${GPU_TESTS:+-k "$GPU_TESTS"} -rs
# Issue 18's real sizes: ONE problem of benchmarks/large_problems per device command (each under 8
# minutes; only when named, it alone fills a command). LARGE_PROBLEM picks one, else the first without a
# result (LARGE_RERUN=1 runs a problem that has one again). Resuming: copy $RES/large_suite.jsonl back to
# benchmarks/results/ before the next command.
[ -n "$STEPS" ] && want large && step large 470 python3 benchmarks/large_suite.py \
  $([ -n "${LARGE_PROBLEM:-}" ] && echo "--problem $LARGE_PROBLEM" || echo --next) ${LARGE_RERUN:+--rerun} \
  --table --work "$RES/large" --copy-to "$RES"
# Issue 19's general problems (benchmarks/general_problems, inputs up to 0.55 GB): ONE problem per device
# command, only when named. GENERAL_PROBLEM=NAME runs that one, `dev` the next of the 8-problem dev
# subset without a result, `next` (the default) the next of all. GENERAL_LIMIT is the step's limit
# (185 s at least: the suite refuses a budget that leaves the job under 90 s after call()'s timing).
# Each card has its own results: general_suite.jsonl on the H200, general_suite.<card>.jsonl on another
# (h100), so `next` picks that card's next problem. Resuming: copy $RES/general_suite*.jsonl back to
# benchmarks/results/ before the next command (the device gets this checkout's files, not its last results).
general_pick() {
  case "${GENERAL_PROBLEM:-next}" in
    next) echo --next ;;
    dev) echo --subset dev ;;
    *) echo --problem "$GENERAL_PROBLEM" ;;
  esac
}
# GENERAL_PROBLEM=a,b runs those problems one after the other, each its own step of GENERAL_LIMIT seconds
# (the results accumulate in one general_suite.jsonl; keep the sum inside one device command).
# GENERAL_RERUN=1 runs a named problem again though it has a result (the new row replaces the old).
# GENERAL_PROBLEM=fill runs `next` problems one after the other for GENERAL_FILL_S seconds (default 570),
# starting one only while GENERAL_LIMIT seconds (default 290) are left, so that each gets a whole step.
general_problems() {
  if [ "${GENERAL_PROBLEM:-next}" != fill ]; then echo "${GENERAL_PROBLEM:-next}" | tr ',' ' '; return; fi
  local n; for n in $(seq 1 12); do echo next; done
}
if [ -n "$STEPS" ] && want general; then
  general_start=$SECONDS general_fill=${GENERAL_PROBLEM:-next}
  gl=${GENERAL_LIMIT:-$([ "$general_fill" = fill ] && echo 290 || echo 470)}   # each problem's step limit
  for GENERAL_PROBLEM in $(general_problems); do
    if [ "$general_fill" = fill ] && [ $(( ${GENERAL_FILL_S:-570} - (SECONDS - general_start) )) -lt "$gl" ]; then
      echo "general: $(( SECONDS - general_start )) s spent, fewer than $gl s left of ${GENERAL_FILL_S:-570}: no more problems" | tee -a "$OUT/summary.txt"
      break
    fi
    step "general_$GENERAL_PROBLEM" "$gl" python3 benchmarks/general_suite.py $(general_pick) \
      --budget-s $(( gl - 10 )) --job-timeout-s $(( gl < 390 ? gl - 60 : 330 )) --table ${GENERAL_RERUN:+--rerun} \
      --work "$RES/general" --copy-to "$RES"
    # each problem's log and report come back (its folder goes: a full disk loses the machine); with `next`
    # or `dev` the problem is the one the suite picked, the last it ran (the only folder under general/)
    ran=$(ls "$RES/general" 2>/dev/null | head -1); ran=${ran:-$GENERAL_PROBLEM}
    mkdir -p "$RES/logs/$ran"
    cp "$RES/general/$ran/optimize.log" "$RES/general/$ran/report/report.md" "$RES/general/$ran"/emitted_for_guard-*.py \
      "$RES/logs/$ran/" 2>/dev/null
    rm -rf "$RES/general" "${TMPDIR:-/tmp}"/kernelopt-* 2>/dev/null
    tar czf "$OUT/results.tgz" -C "$RES" --exclude=cache . 2>/dev/null     # with the log just kept
  done
fi
# A quick look at many general problems in one command (short searches, timed against Inductor default
# only): whether the schedule transforms apply, pass the gate and win. Not the issue's figures.
[ -n "$STEPS" ] && want general_probe && step general_probe "${PROBE_LIMIT:-560}" env KERNELOPT_E2E_MODES=default \
  python3 benchmarks/general_probe.py --problems "${PROBE_PROBLEMS:?name the problems}" \
  --per-problem-s "${PROBE_PER_PROBLEM_S:-80}" --budget-s $(( ${PROBE_LIMIT:-560} - 10 )) --out "$RES/general_probe.jsonl" \
  ${PROBE_PROPOSERS:+--proposers "$PROBE_PROPOSERS"} ${PROBE_DIR:+--problem-dir "$PROBE_DIR"} --keep-modules "$RES/modules"
# One problem through `kernelopt optimize` with everything a developer needs to see why a transform did or did
# not apply on the GPU: the job's log, its report and the Inductor module it started from (no tensors), and where
# the written module's time goes against Inductor's (`kernelopt bench --profile`: their kernels by device time).
[ -n "$STEPS" ] && want optimize_one && step optimize_one "${OPT_LIMIT:-200}" bash -c "mkdir -p $RES/one && \
  python3 -m kernelopt.cli optimize ${OPT_PROBLEM:-benchmarks/structured_gpu_problems/diag_matmul.py} --base default \
  --gpu-seconds ${OPT_GPU_S:-30} -o $RES/one/out.py --report $RES/one/report --keep-work $RES/one/work; \
  find $RES/one/work -name '*.pt' -delete; du -sh $RES/one; \
  python3 -m kernelopt.cli bench $RES/one/out.py --vs \$(ls $RES/one/work/*.0.py | head -1) --rounds 3 --profile 10"
# Where a proposer's candidate for one fusion group spends its time, op by op, against the original group
# (PROFILE_MODULES: output modules; PROFILE_PROPOSER, PROFILE_GROUP). For a candidate the search found slower.
[ -n "$STEPS" ] && want profile_group && step profile_group "${PROFILE_LIMIT:-240}" bash -c "for m in \
  ${PROFILE_MODULES:-}; do echo \"##### \$m\"; python3 benchmarks/profile_group_candidate.py \$m \
  --proposer ${PROFILE_PROPOSER:-sum-through-conv} --group ${PROFILE_GROUP:-0}; done"
# Inductor's default H200 output modules for every general problem (no tensors), so that transforms can be
# developed on the CPU against the kernels the GPU really gets (run there under TRITON_INTERPRET=1).
capture_problems() {
  mkdir -p "$RES/captures"
  ls benchmarks/general_problems/*.py | xargs -P 4 -I{} sh -c 'n=$(basename {} .py); timeout 150 python3 -m kernelopt.cli \
    capture {} --device cuda --store-tensors no --no-timing -o "$1/captures/$n" >"$1/captures/$n.log" 2>&1; echo "$n rc=$?"' _ "$RES"
}
[ -n "$STEPS" ] && want capture_general && step capture_general 400 bash -c "RES=$RES; $(declare -f capture_problems); capture_problems"
# Issue 19: whether a two-pass row group (layer norm over few long rows) gains from running one L2-sized chunk
# of rows at a time (the second read of x from L2), before a transform is written (~1 min; only when named).
[ -n "$STEPS" ] && want l2_probe && step l2_probe 120 python3 benchmarks/l2_chunk_probe.py --out "$RES/l2_chunk_probe.json"
# Issue 22: KernelOPT's CUDA graphs against Inductor default / max-autotune-no-cudagraphs / max-autotune
# through torch.compile, same buffers and a ring of 64, zoo small + decode batch 1/4/8 (only when named;
# ~6-8 min; the suite stops starting cases at CG_BUDGET_S and writes JSON + markdown after each case).
# Then the plain path's host cost per call against Inductor's module, and through torch.compile on both sides
# (Python calls and µs per call: the backend's wiring; benchmarks/host_overhead.py). CG_ONLY=model:size,... runs
# those cases alone (no host_overhead); CG_PROFILE=1 adds torch.profiler's top ops per regime to the json.
[ -n "$STEPS" ] && want cuda_graphs && step cuda_graphs 500 bash -c "python3 benchmarks/cuda_graphs_suite.py \
  --budget-s ${CG_BUDGET_S:-360} ${CG_ONLY:+--only $CG_ONLY} ${CG_PROFILE:+--profile} --out-dir $RES; \
  [ -n \"${CG_ONLY:-}\" ] && exit 0; python3 benchmarks/host_overhead.py --rounds 3 --out $RES/host_overhead.json; \
  python3 benchmarks/host_overhead.py --through-compile --out $RES/host_overhead_compile.json"
exit 0
