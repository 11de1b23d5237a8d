/**
 * What every benchmark program shares: its command-line options ({@link Options}), the loop of
 * warm-up and measured rounds over the read paths ({@link Runner}), and what it reads of its own
 * process and machine.
 *
 * <p>The packages, from the bottom: this one; {@code store} (the store and the emulated network);
 * {@code paths} (the read paths, the peers); {@code workloads} (what is read, and one read
 * measured); {@code report} (what the reports share); then one package per profile ({@code reads},
 * {@code faults}, {@code planning}, {@code rate}, {@code soak}, {@code tpch}, {@code demo}, {@code
 * jmh}), each using those below it and none another profile's.
 */
package io.seekwell.bench;
