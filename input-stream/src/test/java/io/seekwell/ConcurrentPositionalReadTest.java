package io.seekwell;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.seekwell.common.metrics.Metrics;
import io.seekwell.common.object.ObjectLocation;
import io.seekwell.testing.InMemoryObjectClient;
import io.seekwell.testing.TestData;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Positional reads ({@code readFully}, {@code readTail}, {@code readVectored}) of one stream from
 * many threads at once, while another thread reads it sequentially: Hadoop's {@code
 * PositionedReadable} contract. Every byte must equal the object's.
 */
class ConcurrentPositionalReadTest {

  private static final int LENGTH = 6 * 1024 * 1024;

  @Test
  void positionalReadsFromManyThreadsReturnTheObjectsBytes() throws Exception {
    byte[] content = TestData.randomBytes(21, LENGTH);
    InMemoryObjectClient store = new InMemoryObjectClient(new Metrics());
    store.put(ObjectLocation.of("bucket", "shared.bin"), content);
    ControllableObjectClient slow = new ControllableObjectClient(store);
    slow.randomLatency(3);
    ExecutorService threads = Executors.newFixedThreadPool(8);
    try (S3SeekableInputStreamFactory factory =
            new S3SeekableInputStreamFactory(slow, S3SeekableInputStreamConfiguration.DEFAULT);
        S3SeekableInputStream stream = factory.createStream(S3URI.of("bucket", "shared.bin"))) {
      List<Future<?>> readers = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        long seed = t;
        readers.add(threads.submit(() -> readAtRandom(stream, content, new Random(seed))));
      }
      byte[] sequential = new byte[LENGTH];
      int done = 0;
      while (done < LENGTH) {
        done += stream.read(sequential, done, Math.min(100_000, LENGTH - done));
      }
      assertArrayEquals(content, sequential);
      for (Future<?> reader : readers) {
        reader.get(60, TimeUnit.SECONDS);
      }
    } finally {
      threads.shutdownNow();
    }
    assertEquals(0, store.openContents());
  }

  private static Void readAtRandom(S3SeekableInputStream stream, byte[] content, Random random)
      throws Exception {
    for (int i = 0; i < 100; i++) {
      int length = 1 + random.nextInt(200_000);
      int position = random.nextInt(LENGTH - length);
      byte[] bytes = new byte[length];
      switch (i % 3) {
        case 0 -> stream.readFully(position, bytes, 0, length);
        case 1 -> {
          stream.readTail(bytes, 0, length);
          position = LENGTH - length;
        }
        default -> {
          ObjectRange range = new ObjectRange(new CompletableFuture<>(), position, length);
          stream.readVectored(List.of(range), ByteBuffer::allocate, buffer -> {});
          range.getByteBuffer().get(30, TimeUnit.SECONDS).get(bytes);
        }
      }
      assertArrayEquals(Arrays.copyOfRange(content, position, position + length), bytes);
    }
    return null;
  }
}
