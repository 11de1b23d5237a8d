/**
 * The read paths the benchmarks compare, Seekwell's and its peers', each a {@link
 * io.seekwell.bench.paths.ReadPath} over a counted client, and {@link
 * io.seekwell.bench.paths.Peer}, the one list of them by name, with what the reports compare each
 * with: a new peer is a constant there.
 */
package io.seekwell.bench.paths;
