/**
 * What several profiles' reports share: Markdown tables, the median and range of repeated
 * measurements, the charts, and the fault section the read and fault benchmarks share a report
 * with.
 */
package io.seekwell.bench.report;
