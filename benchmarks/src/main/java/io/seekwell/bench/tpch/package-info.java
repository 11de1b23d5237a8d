/**
 * TPC-H in Spark, the {@code tpch} profile: runs the programs of the {@code benchmarks-spark}
 * module in Spark drivers of their own, one application per path, and reports their times, answers
 * and targets.
 */
package io.seekwell.bench.tpch;
