/**
 * The read benchmark, the {@code s3} and {@code loopback} profiles ({@link
 * io.seekwell.bench.reads.Benchmark}): every workload on every read path, cold, and its report with
 * the project's targets.
 */
package io.seekwell.bench.reads;
