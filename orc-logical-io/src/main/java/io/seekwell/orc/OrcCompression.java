package io.seekwell.orc;

import io.airlift.compress.Decompressor;
import io.airlift.compress.MalformedInputException;
import io.airlift.compress.lz4.Lz4Decompressor;
import io.airlift.compress.lzo.LzoDecompressor;
import io.airlift.compress.snappy.SnappyDecompressor;
import io.airlift.compress.zstd.ZstdDecompressor;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;
import org.apache.orc.OrcProto;

/**
 * Undoes the compression of an ORC metadata section (footer, stripe footer): a run of chunks, each
 * behind a 3-byte little-endian header holding its length and whether it is stored as is, each
 * decompressing to at most the postscript's block size. ZLIB is raw deflate (the JDK's {@link
 * Inflater}); Snappy, LZ4, LZO and ZSTD are aircompressor's, which ORC itself uses. Stateless and
 * thread-safe: every call makes its own decompressor.
 */
final class OrcCompression {

  private static final int HEADER = 3;

  private OrcCompression() {}

  /**
   * The bytes {@code section} compressed with {@code postScript}'s codec decompress to.
   *
   * @throws IOException if the codec is not one this reads, or the bytes do not decompress
   */
  static byte[] decompress(OrcProto.PostScript postScript, byte[] section) throws IOException {
    OrcProto.CompressionKind kind = postScript.getCompression();
    if (kind == OrcProto.CompressionKind.NONE) {
      return section;
    }
    int blockSize = Math.toIntExact(postScript.getCompressionBlockSize());
    ByteArrayOutputStream out = new ByteArrayOutputStream(section.length * 4);
    byte[] chunk = new byte[blockSize];
    int at = 0;
    while (at < section.length) {
      if (at + HEADER > section.length) {
        throw new IOException("A compressed chunk header is cut short at byte " + at);
      }
      int header =
          (section[at] & 0xff) | (section[at + 1] & 0xff) << 8 | (section[at + 2] & 0xff) << 16;
      int length = header >>> 1;
      boolean original = (header & 1) == 1;
      at += HEADER;
      if (at + length > section.length) {
        throw new IOException("A compressed chunk of " + length + " bytes is cut short");
      }
      if (original) {
        out.write(section, at, length);
      } else {
        out.write(chunk, 0, inflate(kind, section, at, length, chunk));
      }
      at += length;
    }
    return out.toByteArray();
  }

  private static int inflate(
      OrcProto.CompressionKind kind, byte[] input, int offset, int length, byte[] output)
      throws IOException {
    if (kind == OrcProto.CompressionKind.ZLIB) {
      Inflater inflater = new Inflater(true);
      try {
        inflater.setInput(input, offset, length);
        int n = inflater.inflate(output);
        if (!inflater.finished()) {
          throw new IOException(
              "A ZLIB chunk decompresses to more than " + output.length + " bytes");
        }
        return n;
      } catch (DataFormatException e) {
        throw new IOException("A ZLIB chunk does not decompress", e);
      } finally {
        inflater.end();
      }
    }
    try {
      return decompressor(kind).decompress(input, offset, length, output, 0, output.length);
    } catch (MalformedInputException e) {
      throw new IOException("A " + kind + " chunk does not decompress", e);
    }
  }

  private static Decompressor decompressor(OrcProto.CompressionKind kind) throws IOException {
    return switch (kind) {
      case SNAPPY -> new SnappyDecompressor();
      case LZ4 -> new Lz4Decompressor();
      case LZO -> new LzoDecompressor();
      case ZSTD -> new ZstdDecompressor();
      default -> throw new IOException("ORC files compressed with " + kind + " are not read here");
    };
  }
}
