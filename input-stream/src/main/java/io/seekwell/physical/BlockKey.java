package io.seekwell.physical;

/** A block of one object version, named by where it starts. */
record BlockKey(ObjectKey object, long start) {}
