/**
 * Parquet footer prefetch and predictive column prefetch. Built in a later step; this module
 * currently holds no code.
 */
package io.seekwell.parquet;
