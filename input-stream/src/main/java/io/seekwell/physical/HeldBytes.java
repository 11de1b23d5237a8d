package io.seekwell.physical;

import java.nio.ByteBuffer;

/** Bytes of an object held by one complete block, which the holder has pinned. */
record HeldBytes(Block block, long position, int length) {

  /** The bytes, as a buffer over the block's array; valid while the block stays pinned. */
  ByteBuffer bytes() {
    return block.arrived(position, length);
  }
}
