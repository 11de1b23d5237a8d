/**
 * The soak benchmark, the {@code soak} profile: long-lived Seekwell paths under mixed load, faults
 * and overwrites, every read checked and the process's resources sampled and judged for growth.
 */
package io.seekwell.bench.soak;
