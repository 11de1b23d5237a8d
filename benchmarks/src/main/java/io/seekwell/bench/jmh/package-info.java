/**
 * The JMH microbenchmarks of Seekwell's hot paths in this module, run by {@code scripts/jmh.sh}
 * (which also runs the ones in input-stream's tests).
 */
package io.seekwell.bench.jmh;
