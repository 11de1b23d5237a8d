package io.seekwell.bench.workloads;

import io.seekwell.bench.ProcessCpu;

/**
 * One measured iteration of a workload on a read path.
 *
 * @param seconds the workload's wall-clock time
 * @param cpuSeconds the CPU time of all of this JVM's threads from opening the path's clients to
 *     closing them: what a new job pays for its reads (see {@link ProcessCpu})
 * @param gets GET requests its clients sent
 * @param heads HEAD requests its clients sent
 * @param bytes bytes received
 * @param peakHeap the heap's peak use, in bytes
 * @param checksum what the workload read, summed, to check that every path read the same
 * @param hedges the hedged GETs Seekwell counted, or -1 for a path that does not report it
 */
public record Sample(
    double seconds,
    double cpuSeconds,
    long gets,
    long heads,
    long bytes,
    long peakHeap,
    long checksum,
    long hedges) {}
