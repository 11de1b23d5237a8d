package io.seekwell.parquet;

import io.seekwell.OpenStreamInformation;
import io.seekwell.S3SeekableInputStream;
import io.seekwell.S3SeekableInputStreamFactory;
import io.seekwell.S3URI;
import java.io.IOException;
import org.apache.parquet.io.DelegatingSeekableInputStream;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.SeekableInputStream;

/** A parquet-java {@link InputFile} over a Seekwell stream, for tests. */
final class SeekwellInputFileForTests implements InputFile {

  private final S3SeekableInputStreamFactory factory;
  private final S3URI uri;
  private final OpenStreamInformation information;
  private final long length;

  SeekwellInputFileForTests(
      S3SeekableInputStreamFactory factory,
      S3URI uri,
      OpenStreamInformation information,
      long length) {
    this.factory = factory;
    this.uri = uri;
    this.information = information;
    this.length = length;
  }

  @Override
  public long getLength() {
    return length;
  }

  @Override
  public SeekableInputStream newStream() throws IOException {
    S3SeekableInputStream stream = factory.createStream(uri, information);
    return new DelegatingSeekableInputStream(stream) {
      @Override
      public long getPos() throws IOException {
        return stream.getPos();
      }

      @Override
      public void seek(long newPos) throws IOException {
        stream.seek(newPos);
      }
    };
  }
}
