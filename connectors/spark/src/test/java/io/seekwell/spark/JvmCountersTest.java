package io.seekwell.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.codahale.metrics.Gauge;
import com.codahale.metrics.MetricRegistry;
import io.seekwell.ReadFactories;
import io.seekwell.S3SeekableInputStreamFactory;
import io.seekwell.common.metrics.Metric;
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
    ReadFactories.readOnce(0, true);
    S3SeekableInputStreamFactory open = ReadFactories.readOnce(1, false);
    try {
      assertEquals(before + 2, value(registry, "get_requests"));
      assertEquals(bytesBefore + 200, value(registry, "bytes_received"));
    } finally {
      open.close();
    }
  }

  private static long value(MetricRegistry registry, String name) {
    Gauge<?> gauge = registry.getGauges().get(name);
    return (Long) gauge.getValue();
  }
}
