package io.seekwell.iceberg;

import java.io.IOException;
import org.apache.iceberg.encryption.NativeFileCryptoParameters;
import org.apache.iceberg.encryption.NativelyEncryptedFile;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.io.PositionOutputStream;

/**
 * An output file of a {@link SeekwellS3FileIO}: Iceberg's own S3 output file, whose streams make
 * Seekwell forget what it cached of the location once they close, so that the same FileIO never
 * reads the old version of an object it overwrote. Its input file reads through Seekwell. As
 * thread-safe as the file it wraps.
 *
 * <p>It is a {@link NativelyEncryptedFile} like Iceberg's (deprecated in Iceberg 1.11, still how
 * its encryption manager hands Parquet its native encryption parameters).
 */
@SuppressWarnings("deprecation")
final class SeekwellOutputFile implements OutputFile, NativelyEncryptedFile {

  private final OutputFile written;
  private final SeekwellS3FileIO io;

  SeekwellOutputFile(OutputFile written, SeekwellS3FileIO io) {
    this.written = written;
    this.io = io;
  }

  @Override
  public PositionOutputStream create() {
    return new ForgettingOnClose(written.create());
  }

  @Override
  public PositionOutputStream createOrOverwrite() {
    return new ForgettingOnClose(written.createOrOverwrite());
  }

  @Override
  public String location() {
    return written.location();
  }

  @Override
  public InputFile toInputFile() {
    return io.newInputFile(location());
  }

  @Override
  public NativeFileCryptoParameters nativeCryptoParameters() {
    return ((NativelyEncryptedFile) written).nativeCryptoParameters();
  }

  @Override
  public void setNativeCryptoParameters(NativeFileCryptoParameters parameters) {
    ((NativelyEncryptedFile) written).setNativeCryptoParameters(parameters);
  }

  @Override
  public String toString() {
    return written.toString();
  }

  /** The written stream; closing it completes the upload, then forgets the cached location. */
  private final class ForgettingOnClose extends PositionOutputStream {
    private final PositionOutputStream out;

    private ForgettingOnClose(PositionOutputStream out) {
      this.out = out;
    }

    @Override
    public long getPos() throws IOException {
      return out.getPos();
    }

    @Override
    public long storedLength() throws IOException {
      return out.storedLength();
    }

    @Override
    public void write(int b) throws IOException {
      out.write(b);
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
      out.write(bytes, offset, length);
    }

    @Override
    public void flush() throws IOException {
      out.flush();
    }

    @Override
    public void close() throws IOException {
      try {
        out.close();
      } finally {
        io.forget(location());
      }
    }
  }
}
