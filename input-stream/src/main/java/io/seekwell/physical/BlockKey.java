package io.seekwell.physical;

/**
 * A block of one object version, named by its owner and where it starts. Owners compare by
 * identity, so blocks of a version that was detached (see {@link BlockStore#retain}) never collide
 * with blocks of its successor.
 */
public record BlockKey(ObjectBlocks owner, long start) {}
