/**
 * Physical IO (metadata store, memory-bounded block store, request planner), logical IO and the
 * public seekable stream API. Built in a later step; this module currently holds no code.
 */
package io.seekwell.stream;
