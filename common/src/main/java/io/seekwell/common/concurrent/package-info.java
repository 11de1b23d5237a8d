/**
 * Internal: the threads, timers and futures Seekwell's modules share. Exported only to those
 * modules (see {@code module-info.java}); not public API, and it may change in any release.
 */
package io.seekwell.common.concurrent;
