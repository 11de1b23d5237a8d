/**
 * The fault benchmark, the {@code faults} profile: every read path while a proxy stalls, cuts or
 * slows a share of the connections; its tables go into the read benchmark's report.
 */
package io.seekwell.bench.faults;
