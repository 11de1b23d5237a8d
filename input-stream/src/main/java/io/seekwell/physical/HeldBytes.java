package io.seekwell.physical;

import java.nio.ByteBuffer;
import java.util.List;

/** Bytes of an object held by one complete block, which the holder has pinned. */
public record HeldBytes(Block block, long position, int length) {

  /** The bytes, as buffers over the block's pages; valid while the block stays pinned. */
  public List<ByteBuffer> bytes() {
    return block.arrived(position, length);
  }
}
