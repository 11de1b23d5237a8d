#!/usr/bin/env bash
# The side-by-side benchmark: starts MinIO (behind Toxiproxy for the s3 profile), generates the
# datasets once (cached in .tools/bench-data), runs every workload on every read path, writes
# docs/benchmarks.md (docs/benchmarks-loopback.md for --profile loopback, or
# target/benchmarks-quick.md with --quick), and stops what it started.
# Usage: ./scripts/bench.sh [--profile s3|loopback|faults|planning|rate|soak|tpch] [--quick] [--paths a,b]
#        [--workloads W1,W5] [--iterations N] [--warmup N] [--report FILE]
# Other --name value options go to the profile's program, which refuses an option it does not take
# and names the ones it does.
# --profile faults runs the fault benchmark (io.seekwell.bench.faults.FaultBenchmark) behind the
# s3 latency profile: every read path with stalls, cuts (FIN, RST) and slow first bytes on 2 % and
# 25 % of the connections; its tables go to the fault section of docs/benchmarks.md.
# --profile planning runs Iceberg scan planning (io.seekwell.bench.planning.PlanningBenchmark)
# behind the s3 latency profile, with Seekwell's disk tier cold and warm; report:
# docs/benchmarks-planning.md.
# --profile rate runs the request-rate benchmark (io.seekwell.bench.rate.RequestRateBenchmark) on
# loopback: random 4 KiB reads from 1, 16, 64 and 256 threads, then from 64 and 256 threads against
# a store 25 ms away that throttles above 200 requests a second; report:
# docs/benchmarks-request-rate.md.
# --profile soak runs the soak benchmark (io.seekwell.bench.soak.SoakBenchmark) behind the s3
# latency profile: one long-lived Seekwell factory, Iceberg FileIO and S3A stream factory serving
# mixed workloads for --minutes (60 by default; 2 with --quick) with faults on 2 % of the
# connections, 503s and overwritten objects, the disk tier on; it records the process's resources
# every interval and fails on a wrong byte, a failed read or growth; report:
# docs/benchmarks-soak.md.
# --profile tpch runs TPC-H in Spark (io.seekwell.bench.tpch.TpchBenchmark): the 22 queries at
# --scale (1 by default; 0.01 with --quick) on Iceberg and on S3A, each through Iceberg's or S3A's
# own stream, AAL and Seekwell, in Spark applications of two executor JVMs, through the s3 latency
# profile and then on loopback (each query's floor); report: docs/benchmarks-tpch.md. Its
# --executor-memory-mb N (2048 by default) sizes each worker and its executor: local-cluster[2,1,N]
# and spark.executor.memory; 1024 gives Spark's default 1 GiB executors. The report gives each
# path's wall time, driver and executor CPU, and the executors' GC time, on both networks.
# The s3 (default) and loopback profiles run the read benchmark (io.seekwell.bench.reads.Benchmark).
# BENCH_JAVA_OPTS adds JVM options to the benchmark JVM, for example
# BENCH_JAVA_OPTS=-Dorg.slf4j.simpleLogger.log.io.seekwell.client=debug to log each hedge, give-up and retry.
# For --profile tpch, its -Dspark.* properties are Spark settings of every application, for example
# BENCH_JAVA_OPTS='-Dspark.executor.extraJavaOptions=-XX:StartFlightRecording=filename=/tmp/jfr/'
# to record each executor JVM with Java Flight Recorder.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/lib/local-s3.sh
parse_profile "$@"
if [ "$PROFILE" = tpch ]; then build_benchmarks benchmarks-spark; else build_benchmarks; fi
if [ "$QUICK" = true ]; then
  echo "... a smoke run (--quick): it checks that the benchmark runs, not its targets"
fi
if [ "$PROFILE" = faults ]; then
  start_local_s3 s3 harness-proxy
  if [ "$QUICK" = true ]; then
    run_benchmarks_class io.seekwell.bench.faults.FaultBenchmark "${S3_ARGS[@]}" --scale quick \
      --iterations 1 --faults cut-rst,stall --fractions 0.25 --deadline 120 \
      --smoke true --report benchmarks/target/benchmarks-faults-quick.md "${PASS_ARGS[@]}"
  else
    run_benchmarks_class io.seekwell.bench.faults.FaultBenchmark "${S3_ARGS[@]}" --scale full \
      "${PASS_ARGS[@]}"
  fi
  exit 0
fi
if [ "$PROFILE" = soak ]; then
  start_local_s3 s3 harness-proxy
  # A heap of fixed size, touched at start: the resident set then grows only if native memory does.
  heap=4g
  if [ "$QUICK" = true ]; then heap=2g; fi
  BENCH_JAVA_OPTS="-Xms$heap -Xmx$heap -XX:+AlwaysPreTouch ${BENCH_JAVA_OPTS:-}"
  if [ "$QUICK" = true ]; then
    # The small data, with caches smaller than it, so that GETs (and so faults) go on throughout.
    run_benchmarks_class io.seekwell.bench.soak.SoakBenchmark "${S3_ARGS[@]}" --scale quick \
      --minutes 2 --warmup-minutes 1 --sample-seconds 10 \
      --seekwell physicalio.max.memory.limit=16MB,physicalio.disk.cache.max.size=32MB \
      --report benchmarks/target/benchmarks-soak-quick.md "${PASS_ARGS[@]}"
  else
    run_benchmarks_class io.seekwell.bench.soak.SoakBenchmark "${S3_ARGS[@]}" --scale full \
      "${PASS_ARGS[@]}"
  fi
  exit 0
fi
if [ "$PROFILE" = tpch ]; then
  start_local_s3 s3 harness-proxy
  if [ "$QUICK" = true ]; then
    # Scale factor 0.01, one round, no floor: every path's answers must agree.
    run_benchmarks_class io.seekwell.bench.tpch.TpchBenchmark "${S3_ARGS[@]}" --scale 0.01 \
      --rounds 1 --floors false --deadline-minutes 15 --smoke true \
      --report benchmarks/target/benchmarks-tpch-quick.md "${PASS_ARGS[@]}"
  else
    run_benchmarks_class io.seekwell.bench.tpch.TpchBenchmark "${S3_ARGS[@]}" "${PASS_ARGS[@]}"
  fi
  exit 0
fi
if [ "$PROFILE" = rate ]; then
  start_local_s3 loopback
  if [ "$QUICK" = true ]; then
    run_benchmarks_class io.seekwell.bench.rate.RequestRateBenchmark "${S3_ARGS[@]}" \
      --threads 1,16 --seconds 2 --objects 8 --object-mb 16 --memory-mb 8 \
      --smoke true --report benchmarks/target/benchmarks-request-rate-quick.md "${PASS_ARGS[@]}"
    run_benchmarks_class io.seekwell.bench.rate.RequestRateBenchmark "${S3_ARGS[@]}" --threads 16 \
      --seconds 2 --objects 8 --object-mb 16 --memory-mb 8 --throttle 100 --append true \
      --smoke true --report benchmarks/target/benchmarks-request-rate-quick.md "${PASS_ARGS[@]}"
  else
    run_benchmarks_class io.seekwell.bench.rate.RequestRateBenchmark "${S3_ARGS[@]}" \
      --report docs/benchmarks-request-rate.md "${PASS_ARGS[@]}"
    run_benchmarks_class io.seekwell.bench.rate.RequestRateBenchmark "${S3_ARGS[@]}" \
      --threads 64,256 --throttle 200 --seconds 20 --append true \
      --report docs/benchmarks-request-rate.md \
      "${PASS_ARGS[@]}"
  fi
  exit 0
fi
if [ "$PROFILE" = planning ]; then
  start_local_s3 s3 harness-proxy
  # The report gives CPU without the JIT compilers' threads: none may end and take its time along.
  BENCH_JAVA_OPTS="-XX:-UseDynamicNumberOfCompilerThreads ${BENCH_JAVA_OPTS:-}"
  if [ "$QUICK" = true ]; then
    run_benchmarks_class io.seekwell.bench.planning.PlanningBenchmark "${S3_ARGS[@]}" \
      --snapshots 20 --iterations 1 --smoke true \
      --report benchmarks/target/benchmarks-planning-quick.md "${PASS_ARGS[@]}"
  else
    run_benchmarks_class io.seekwell.bench.planning.PlanningBenchmark "${S3_ARGS[@]}" \
      "${PASS_ARGS[@]}"
    # Again with Iceberg planning on one thread (a JVM of its own: Iceberg reads the switch once).
    run_benchmarks_class io.seekwell.bench.planning.PlanningBenchmark "${S3_ARGS[@]}" \
      --planner single --append true "${PASS_ARGS[@]}"
  fi
  exit 0
fi
start_local_s3 "$PROFILE" harness-proxy
if [ "$QUICK" = true ]; then
  run_benchmarks_class io.seekwell.bench.reads.Benchmark "${S3_ARGS[@]}" \
    --scale quick --iterations 1 --warmup 0 --smoke true --report benchmarks/target/benchmarks-quick.md "${PASS_ARGS[@]}"
else
  # W7 cannot run here on the streams that abort GETs: with 16 streams at once Toxiproxy keeps
  # reading every aborted response into memory and is killed by the kernel.
  run_benchmarks_class io.seekwell.bench.reads.Benchmark "${S3_ARGS[@]}" --scale full \
    --iterations 5 --skip W7:iceberg-default,W7:s3a-classic \
    --skip-reason "Iceberg's and S3A's streams abort many GETs that reach to the end of the 1 GiB objects; with 16 concurrent streams Toxiproxy kept reading each aborted response from MinIO into memory and was killed by the kernel's OOM killer at 22 GB resident on this 24 GiB machine" \
    "${PASS_ARGS[@]}"
fi
