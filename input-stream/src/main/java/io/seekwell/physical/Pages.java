package io.seekwell.physical;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Addressing of a block's bytes across its pages ({@link PagePool}): byte {@code i} of a block is
 * byte {@code i % PAGE} of page {@code i / PAGE}. Stateless.
 */
final class Pages {

  private static final int SHIFT = Integer.numberOfTrailingZeros(PagePool.PAGE);
  private static final int MASK = PagePool.PAGE - 1;

  private Pages() {}

  /** The page holding byte {@code at}. */
  static byte[] pageOf(byte[][] pages, int at) {
    return pages[at >>> SHIFT];
  }

  /** Where byte {@code at} lies in its page. */
  static int offsetInPage(int at) {
    return at & MASK;
  }

  /**
   * Copies {@code length} bytes from byte {@code from} on into {@code target} at {@code offset}.
   */
  static void copy(byte[][] pages, int from, byte[] target, int offset, int length) {
    while (length > 0) {
      byte[] page = pageOf(pages, from);
      int in = offsetInPage(from);
      int n = Math.min(length, page.length - in);
      System.arraycopy(page, in, target, offset, n);
      from += n;
      offset += n;
      length -= n;
    }
  }

  /**
   * Copies {@code length} bytes from byte {@code from} on into {@code target} at {@code index}, not
   * moving its position.
   */
  static void copy(byte[][] pages, int from, ByteBuffer target, int index, int length) {
    while (length > 0) {
      byte[] page = pageOf(pages, from);
      int in = offsetInPage(from);
      int n = Math.min(length, page.length - in);
      target.put(index, page, in, n);
      from += n;
      index += n;
      length -= n;
    }
  }

  /** The {@code length} bytes from byte {@code from} on, as buffers over the pages (no copy). */
  static List<ByteBuffer> slices(byte[][] pages, int from, int length) {
    List<ByteBuffer> slices = new ArrayList<>();
    while (length > 0) {
      byte[] page = pageOf(pages, from);
      int in = offsetInPage(from);
      int n = Math.min(length, page.length - in);
      slices.add(ByteBuffer.wrap(page, in, n));
      from += n;
      length -= n;
    }
    return slices;
  }

  /** The bytes the arrays hold together. */
  static long length(byte[][] pages) {
    long length = 0;
    for (byte[] page : pages) {
      length += page.length;
    }
    return length;
  }
}
