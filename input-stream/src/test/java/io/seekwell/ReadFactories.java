package io.seekwell;

import io.seekwell.common.metrics.Metrics;
import io.seekwell.common.object.ObjectLocation;
import io.seekwell.testing.InMemoryObjectClient;
import io.seekwell.testing.TestData;
import java.io.IOException;

/**
 * Factories that have read, for tests of what the JVM's counters show (shared through the test jar
 * with the connectors that export the counters).
 */
public final class ReadFactories {

  private ReadFactories() {}

  /**
   * A factory over an in-memory store that has read a 100-byte object of {@code seed}'s bytes
   * whole: one GET of 100 bytes. Closed if {@code close}; otherwise the caller closes it.
   */
  public static S3SeekableInputStreamFactory readOnce(long seed, boolean close) throws IOException {
    InMemoryObjectClient store = new InMemoryObjectClient(new Metrics());
    store.put(ObjectLocation.of("bucket", "key"), TestData.randomBytes(seed, 100));
    S3SeekableInputStreamFactory streams =
        new S3SeekableInputStreamFactory(store, S3SeekableInputStreamConfiguration.DEFAULT);
    try (S3SeekableInputStream stream = streams.createStream(S3URI.of("bucket", "key"))) {
      stream.readFully(0, new byte[100], 0, 100);
    } catch (IOException | RuntimeException e) {
      streams.close();
      throw e;
    }
    if (close) {
      streams.close();
    }
    return streams;
  }
}
