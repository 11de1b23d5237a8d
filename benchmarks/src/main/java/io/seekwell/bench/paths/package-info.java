/**
 * The read paths the benchmarks compare, Seekwell's and its peers', each a {@link
 * io.seekwell.bench.paths.ReadPath} over a counted client, and the Seekwell settings they are
 * given.
 */
package io.seekwell.bench.paths;
