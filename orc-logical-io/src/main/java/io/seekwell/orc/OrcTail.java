package io.seekwell.orc;

import java.io.IOException;
import java.util.Arrays;
import org.apache.orc.OrcProto;
import org.apache.orc.protobuf.CodedInputStream;

/**
 * The end of an ORC file: its postscript, parsed with ORC's own {@link OrcProto.PostScript}, and
 * from it the length of the whole tail (postscript, footer and stripe statistics). Immutable.
 *
 * @param postScript the file's postscript
 * @param postScriptLength its serialized length, the file's last byte
 * @param length the bytes of the tail, from the start of the stripe statistics to the file's end
 */
record OrcTail(OrcProto.PostScript postScript, int postScriptLength, long length) {

  /** The postscript's length is one byte, the file's last: at most 255, plus that byte. */
  static final int LONGEST_POSTSCRIPT = 256;

  private static final String MAGIC = "ORC";

  /**
   * Parses the postscript at the end of {@code end}, the last bytes of a file of {@code fileLength}
   * bytes named {@code file}.
   *
   * @throws IOException if the bytes are not the end of an ORC file
   */
  static OrcTail parse(String file, long fileLength, byte[] end) throws IOException {
    OrcProto.PostScript postScript = postScript(file, end);
    int postScriptLength = end[end.length - 1] & 0xff;
    long length =
        1 + postScriptLength + postScript.getFooterLength() + postScript.getMetadataLength();
    if (length > fileLength) {
      throw new IOException(
          file + " is not an ORC file: its tail of " + length + " bytes is longer than the file");
    }
    return new OrcTail(postScript, postScriptLength, length);
  }

  /**
   * The file's footer, parsed with ORC's {@link OrcProto.Footer} from {@code end}, the file's last
   * bytes, which must hold the footer.
   *
   * @throws IOException if they do not, or it does not decompress or parse
   */
  OrcProto.Footer footer(String file, byte[] end) throws IOException {
    int footerEnd = end.length - 1 - postScriptLength;
    long footerStart = footerEnd - postScript.getFooterLength();
    if (footerStart < 0) {
      throw new IOException(
          file + ": the footer's " + postScript.getFooterLength() + " bytes are not all given");
    }
    byte[] compressed = Arrays.copyOfRange(end, (int) footerStart, footerEnd);
    try {
      return OrcProto.Footer.parseFrom(OrcCompression.decompress(postScript, compressed));
    } catch (IOException e) {
      throw new IOException(file + ": its footer does not parse", e);
    }
  }

  private static OrcProto.PostScript postScript(String file, byte[] end) throws IOException {
    if (end.length == 0) {
      throw new IOException(file + " is empty: not an ORC file");
    }
    int postScriptLength = end[end.length - 1] & 0xff;
    if (postScriptLength == 0 || postScriptLength + 1 > end.length) {
      throw new IOException(
          file + " is not an ORC file: its postscript length is " + postScriptLength);
    }
    OrcProto.PostScript postScript;
    try {
      postScript =
          OrcProto.PostScript.parseFrom(
              CodedInputStream.newInstance(
                  end, end.length - 1 - postScriptLength, postScriptLength));
    } catch (IOException e) {
      throw new IOException(file + " is not an ORC file: its postscript does not parse", e);
    }
    if (!MAGIC.equals(postScript.getMagic())) {
      throw new IOException(file + " is not an ORC file: its postscript has no ORC magic");
    }
    return postScript;
  }
}
