/**
 * The request-rate benchmark, the {@code rate} profile: small random reads from many threads,
 * against a plain store and a throttling one, and its report.
 */
package io.seekwell.bench.rate;
