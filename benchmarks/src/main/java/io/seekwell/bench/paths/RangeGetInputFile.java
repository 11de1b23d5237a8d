package io.seekwell.bench.paths;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.SeekableInputStream;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;

/**
 * The baseline: a Parquet {@link InputFile} that sends one ranged GET for every read, as a plain
 * SDK stream without caching or read-ahead does.
 */
public final class RangeGetInputFile implements InputFile {

  private final S3Client s3;
  private final String bucket;
  private final String key;
  private final long length;

  public RangeGetInputFile(S3Client s3, String bucket, String key, long length) {
    this.s3 = s3;
    this.bucket = bucket;
    this.key = key;
    this.length = length;
  }

  @Override
  public long getLength() {
    return length;
  }

  @Override
  public SeekableInputStream newStream() {
    return new SeekableInputStream() {
      private long position;

      private byte[] get(long start, int count) throws IOException {
        if (start + count > length) {
          throw new EOFException("Read past the end of s3://" + bucket + "/" + key);
        }
        ResponseBytes<GetObjectResponse> bytes =
            s3.getObjectAsBytes(
                b -> b.bucket(bucket).key(key).range("bytes=" + start + "-" + (start + count - 1)));
        return bytes.asByteArray();
      }

      @Override
      public long getPos() {
        return position;
      }

      @Override
      public void seek(long newPosition) {
        position = newPosition;
      }

      @Override
      public int read() throws IOException {
        if (position >= length) {
          return -1;
        }
        return get(position++, 1)[0] & 0xFF;
      }

      @Override
      public int read(byte[] buffer, int offset, int count) throws IOException {
        if (count == 0) {
          return 0;
        }
        if (position >= length) {
          return -1;
        }
        int n = (int) Math.min(count, length - position);
        System.arraycopy(get(position, n), 0, buffer, offset, n);
        position += n;
        return n;
      }

      @Override
      public void readFully(byte[] buffer) throws IOException {
        readFully(buffer, 0, buffer.length);
      }

      @Override
      public void readFully(byte[] buffer, int offset, int count) throws IOException {
        if (count > 0) {
          System.arraycopy(get(position, count), 0, buffer, offset, count);
          position += count;
        }
      }

      @Override
      public int read(ByteBuffer buffer) throws IOException {
        int count = (int) Math.min(buffer.remaining(), length - position);
        if (count <= 0) {
          return buffer.hasRemaining() ? -1 : 0;
        }
        buffer.put(get(position, count));
        position += count;
        return count;
      }

      @Override
      public void readFully(ByteBuffer buffer) throws IOException {
        int count = buffer.remaining();
        if (count > 0) {
          buffer.put(get(position, count));
          position += count;
        }
      }
    };
  }
}
