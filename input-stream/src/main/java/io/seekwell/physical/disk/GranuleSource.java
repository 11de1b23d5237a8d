package io.seekwell.physical.disk;

import java.io.IOException;

/**
 * Checked granules of one object version stored on disk, as a {@link GranuleFiller} reads them: a
 * disk tier's own object ({@link DiskObject}) or another slot's, read only ({@link SharedCopy}).
 */
interface GranuleSource {

  /**
   * Copies the stored granules from {@code granule} on that fit whole in {@code length} bytes into
   * {@code array} at {@code offset}, and checks each; stops at the first granule cut short or
   * failing its checksum, which is told to {@code onBad}.
   *
   * @return how many bytes, from the start of {@code granule}, are the object's: whole granules
   *     (the object's last may be shorter), 0 if the first is not stored or does not fit
   * @throws java.nio.channels.ClosedChannelException if the files were removed meanwhile
   */
  int read(int granule, byte[] array, int offset, int length, Runnable onBad) throws IOException;

  /** The length of {@code granule}: 64 KiB, or less for the object's last. */
  int lengthOf(int granule);
}
