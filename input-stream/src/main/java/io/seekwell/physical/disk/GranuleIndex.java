package io.seekwell.physical.disk;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.zip.CRC32C;

/**
 * The file format of a {@link DiskObject}'s index and what it says: which 64 KiB granules of the
 * object version are stored, each with the CRC32C of its bytes. An index file is a header (magic,
 * the object's identity and length, the header's CRC32C) and then 12-byte records (granule,
 * checksum, the record's CRC32C), appended as granules are written. A record counts only if it is
 * whole and its own checksum matches, so a torn record ends the index.
 *
 * <p>Thread-safety: a granule's checksum is set before its bit in {@code present}, whose atomic
 * write publishes it; readers look at the bit first. Bits are set by the one writer thread, and by
 * {@link DiskObject#load} (on whichever thread loads the object first, a fetch thread or the
 * writer) before it publishes the index; any reader may clear one ({@link #forget}).
 */
final class GranuleIndex {

  /** The unit the disk tier stores, checks and evicts within an object. */
  static final int GRANULE = 64 * 1024;

  /** The bytes of one index record. */
  static final int RECORD = 12;

  private static final byte[] MAGIC = "SEEKWELL-DISK-1\n".getBytes(StandardCharsets.US_ASCII);

  /** The most bytes of an index file read to estimate it: a header with any likely identity. */
  private static final int HEADER_PEEK = 4096;

  private final long length;
  private final int[] checksums;
  private final AtomicLongArray present;

  /** An index of an object of {@code length} bytes that lists no granule yet. */
  GranuleIndex(long length) {
    this.length = length;
    int granules = Math.toIntExact((length + GRANULE - 1) / GRANULE);
    this.checksums = new int[granules];
    this.present = new AtomicLongArray((granules + 63) / 64);
  }

  /** The granule holding {@code position}. */
  static int granuleOf(long position) {
    return (int) (position / GRANULE);
  }

  /** The first byte of {@code granule}. */
  static long startOf(int granule) {
    return (long) granule * GRANULE;
  }

  /**
   * The estimate of bytes the index file {@code indexFile} of {@code indexSize} bytes lists, from
   * its header alone: a granule for each record after the header (an upper bound, as a granule
   * written again after it was found bad has two records), at most the object's length. A file
   * whose header cannot be read is estimated from its size alone, a granule for every record's
   * bytes in it.
   */
  static long estimatedBytes(Path indexFile, long indexSize) {
    byte[] start = new byte[(int) Math.min(indexSize, HEADER_PEEK)];
    try (InputStream in = Files.newInputStream(indexFile)) {
      int read = in.readNBytes(start, 0, start.length);
      ByteBuffer header = ByteBuffer.wrap(start, 0, read).slice();
      if (read >= MAGIC.length + 4
          && Arrays.equals(start, 0, MAGIC.length, MAGIC, 0, MAGIC.length)) {
        int nameLength = header.getInt(MAGIC.length);
        int headerLength = MAGIC.length + 4 + nameLength + 8 + 4;
        if (nameLength >= 0 && headerLength <= read) {
          long length = header.getLong(MAGIC.length + 4 + nameLength);
          long records = Math.max(0, indexSize - headerLength) / RECORD;
          return Math.max(0, Math.min(records * GRANULE, length));
        }
      }
    } catch (IOException e) {
      // Estimated from the size below; loading the object reads the file again and says why.
    }
    return Math.max(0, indexSize / RECORD) * GRANULE;
  }

  /** The header an index of the object {@code identity} of {@code length} bytes starts with. */
  static byte[] header(String identity, long length) {
    byte[] name = identity.getBytes(StandardCharsets.UTF_8);
    ByteBuffer header = ByteBuffer.allocate(MAGIC.length + 4 + name.length + 8 + 4);
    header.put(MAGIC).putInt(name.length).put(name).putLong(length);
    CRC32C crc = new CRC32C();
    crc.update(header.array(), 0, header.position());
    header.putInt((int) crc.getValue());
    return header.array();
  }

  /** Whether {@code stored} starts with {@code header}. */
  static boolean startsWith(byte[] stored, byte[] header) {
    return stored.length >= header.length
        && Arrays.equals(stored, 0, header.length, header, 0, header.length);
  }

  /**
   * Takes in the whole, well-formed records of {@code stored} from {@code offset}, up to the first
   * that is not.
   *
   * @return the bytes of the records taken in
   */
  long readRecords(byte[] stored, int offset) {
    ByteBuffer records = ByteBuffer.wrap(stored, offset, stored.length - offset);
    long valid = 0;
    while (records.remaining() >= RECORD) {
      int granule = records.getInt();
      int checksum = records.getInt();
      int recordChecksum = records.getInt();
      if (recordChecksum != recordChecksum(granule, checksum)
          || granule < 0
          || granule >= checksums.length) {
        break;
      }
      add(granule, checksum);
      valid += RECORD;
    }
    return valid;
  }

  /** Appends to {@code records} the record of {@code granule} with {@code checksum}. */
  static void putRecord(ByteBuffer records, int granule, int checksum) {
    records.putInt(granule).putInt(checksum).putInt(recordChecksum(granule, checksum));
  }

  private static int recordChecksum(int granule, int checksum) {
    CRC32C crc = new CRC32C();
    crc.update(ByteBuffer.allocate(8).putInt(granule).putInt(checksum).flip());
    return (int) crc.getValue();
  }

  /** The CRC32C of {@code length} bytes of {@code array} from {@code offset}. */
  static int checksum(byte[] array, int offset, int length) {
    CRC32C crc = new CRC32C();
    crc.update(array, offset, length);
    return (int) crc.getValue();
  }

  /** How many granules the object has. */
  int granules() {
    return checksums.length;
  }

  /** The length of {@code granule}: 64 KiB, or less for the object's last. */
  int lengthOf(int granule) {
    return (int) Math.min(GRANULE, length - startOf(granule));
  }

  /** Whether {@code granule} is listed. */
  boolean isPresent(int granule) {
    return (present.get(granule / 64) & (1L << (granule % 64))) != 0;
  }

  /** Lists {@code granule} with {@code checksum}. */
  void add(int granule, int checksum) {
    checksums[granule] = checksum;
    present.getAndAccumulate(granule / 64, 1L << (granule % 64), (a, b) -> a | b);
  }

  /**
   * The bytes of the run of listed granules from {@code granule} on that fit whole in {@code
   * length} bytes: at most {@code maxRun} bytes and not past a multiple of {@code boundary}; 0 if
   * {@code granule} is not listed or does not fit.
   */
  int runLength(int granule, int length, int maxRun, long boundary) {
    int size = 0;
    for (int next = granule;
        next < granules() && isPresent(next) && size + lengthOf(next) <= length;
        next++) {
      size += lengthOf(next);
      if (size >= maxRun || startOf(next + 1) % boundary == 0) {
        break;
      }
    }
    return size;
  }

  /**
   * How many of the {@code arrived} bytes in {@code array} at {@code offset}, the granules from
   * {@code granule} on, are whole granules that match their checksums, up to the first that does
   * not.
   */
  int checkedLength(int granule, byte[] array, int offset, int arrived) {
    int good = 0;
    for (int next = granule; next < granules() && good < arrived; next++) {
      int granuleLength = lengthOf(next);
      if (good + granuleLength > arrived || !matches(next, array, offset + good, granuleLength)) {
        break;
      }
      good += granuleLength;
    }
    return good;
  }

  /** Whether {@code length} bytes of {@code array} from {@code offset} match {@code granule}. */
  boolean matches(int granule, byte[] array, int offset, int length) {
    return checksum(array, offset, length) == checksums[granule];
  }

  /**
   * Stops listing {@code granule}. Only the caller that clears it is told so: readers of two blocks
   * that share the granule may find it bad together, and it counts as one failure.
   *
   * @return whether this call cleared it
   */
  boolean forget(int granule) {
    long bit = 1L << (granule % 64);
    return (present.getAndAccumulate(granule / 64, ~bit, (a, b) -> a & b) & bit) != 0;
  }

  /** The bytes of the granules listed. */
  long listedBytes() {
    long bytes = 0;
    for (int granule = 0; granule < checksums.length; granule++) {
      if (isPresent(granule)) {
        bytes += lengthOf(granule);
      }
    }
    return bytes;
  }
}
