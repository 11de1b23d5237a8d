/**
 * The README's demo ({@code scripts/demo.sh}): a small Parquet table read through a plain SDK
 * range-read stream and through Seekwell.
 */
package io.seekwell.bench.demo;
