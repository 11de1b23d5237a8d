package io.seekwell.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.codahale.metrics.Gauge;
import com.codahale.metrics.MetricRegistry;
import io.seekwell.S3SeekableInputStream;
import io.seekwell.S3SeekableInputStreamConfiguration;
import io.seekwell.S3SeekableInputStreamFactory;
import io.seekwell.S3URI;
import io.seekwell.common.metrics.Metric;
import io.seekwell.common.metrics.Metrics;
import io.seekwell.common.object.ObjectLocation;
import io.seekwell.testing.InMemoryObjectClient;
import io.seekwell.testing.TestData;
import java.io.IOException;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class JvmCountersTest {

  @Test
  void everyCounterIsAGaugeOfEveryFactoryOfTheJvmClosedOnesIncluded() throws IOException {
    MetricRegistry registry = new MetricRegistry();
    JvmCounters.register(registry);
    assertEquals(
        Arrays.stream(Metric.values()).map(JvmCounters::name).sorted().toList(),
        registry.getGauges().keySet().stream().toList());
    long before = value(registry, "get_requests");
    long bytesBefore = value(registry, "bytes_received");

    // Two factories, one closed before the gauges are read: 1 GET of 100 bytes each.
    read(0);
    S3SeekableInputStreamFactory open = read(1);
    try {
      assertEquals(before + 2, value(registry, "get_requests"));
      assertEquals(bytesBefore + 200, value(registry, "bytes_received"));
    } finally {
      open.close();
    }
  }

  /** A factory that has read a 100-byte object once; closed unless it is the second. */
  private static S3SeekableInputStreamFactory read(int factory) throws IOException {
    InMemoryObjectClient store = new InMemoryObjectClient(new Metrics());
    store.put(ObjectLocation.of("bucket", "key"), TestData.randomBytes(factory, 100));
    S3SeekableInputStreamFactory streams =
        new S3SeekableInputStreamFactory(store, S3SeekableInputStreamConfiguration.DEFAULT);
    try (S3SeekableInputStream stream = streams.createStream(S3URI.of("bucket", "key"))) {
      stream.readFully(0, new byte[100], 0, 100);
    } catch (IOException | RuntimeException e) {
      streams.close();
      throw e;
    }
    if (factory == 0) {
      streams.close();
    }
    return streams;
  }

  private static long value(MetricRegistry registry, String name) {
    Gauge<?> gauge = registry.getGauges().get(name);
    return (Long) gauge.getValue();
  }
}
