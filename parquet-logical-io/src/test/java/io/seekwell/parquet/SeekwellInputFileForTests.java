package io.seekwell.parquet;

import io.seekwell.ObjectRange;
import io.seekwell.OpenStreamInformation;
import io.seekwell.S3SeekableInputStream;
import io.seekwell.S3SeekableInputStreamFactory;
import io.seekwell.S3URI;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.parquet.bytes.ByteBufferAllocator;
import org.apache.parquet.io.DelegatingSeekableInputStream;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.ParquetFileRange;
import org.apache.parquet.io.SeekableInputStream;

/** A parquet-java {@link InputFile} over a Seekwell stream, with or without vectored reads. */
final class SeekwellInputFileForTests implements InputFile {

  private final S3SeekableInputStreamFactory factory;
  private final S3URI uri;
  private final OpenStreamInformation information;
  private final long length;
  private final boolean vectored;
  private final AtomicInteger vectoredReads = new AtomicInteger();

  SeekwellInputFileForTests(
      S3SeekableInputStreamFactory factory,
      S3URI uri,
      OpenStreamInformation information,
      long length,
      boolean vectored) {
    this.factory = factory;
    this.uri = uri;
    this.information = information;
    this.length = length;
    this.vectored = vectored;
  }

  /** How many vectored reads parquet-java made through this file's streams. */
  int vectoredReads() {
    return vectoredReads.get();
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

      @Override
      public boolean readVectoredAvailable(ByteBufferAllocator allocator) {
        return vectored;
      }

      @Override
      public void readVectored(List<ParquetFileRange> ranges, ByteBufferAllocator allocator)
          throws IOException {
        vectoredReads.incrementAndGet();
        List<ObjectRange> ours = new ArrayList<>();
        for (ParquetFileRange range : ranges) {
          ObjectRange our = ObjectRange.of(range.getOffset(), range.getLength());
          range.setDataReadFuture(our.getByteBuffer());
          ours.add(our);
        }
        stream.readVectored(ours, allocator::allocate, allocator::release);
      }
    };
  }
}
