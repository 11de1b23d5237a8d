/**
 * What the benchmarks read and how one read is measured: the data set, the workloads W1 to W13 on a
 * read path, the Parquet and ORC readers they use, and {@link
 * io.seekwell.bench.workloads.ColdRead}, one workload on a fresh path, timed and counted.
 */
package io.seekwell.bench.workloads;
