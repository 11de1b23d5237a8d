/**
 * Iceberg scan planning, the {@code planning} profile: a table of many manifests planned through
 * each FileIO as a new JVM has it, Seekwell's with its disk tier cold and warm, and its report.
 */
package io.seekwell.bench.planning;
