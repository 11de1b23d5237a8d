package io.seekwell.opentelemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opentelemetry.api.metrics.BatchCallback;
import io.opentelemetry.exporter.prometheus.PrometheusHttpServer;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.LongPointData;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import io.seekwell.ReadFactories;
import io.seekwell.S3SeekableInputStreamFactory;
import io.seekwell.common.metrics.Metric;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class SeekwellMetricsTest {

  @Test
  void everyCounterIsPublishedForEveryFactoryOfTheJvmClosedOnesIncluded() throws IOException {
    InMemoryMetricReader reader = InMemoryMetricReader.create();
    try (OpenTelemetrySdk sdk =
        OpenTelemetrySdk.builder()
            .setMeterProvider(SdkMeterProvider.builder().registerMetricReader(reader).build())
            .build()) {
      BatchCallback published = SeekwellMetrics.publish(sdk);
      Map<String, MetricData> before = byName(reader);
      assertEquals(
          Arrays.stream(Metric.values()).map(SeekwellMetrics::instrumentName).sorted().toList(),
          before.keySet().stream().toList());
      assertEquals("{request}", before.get("seekwell.get_requests").getUnit());
      assertEquals("By", before.get("seekwell.prefetched_bytes_unused").getUnit());
      assertEquals("ns", before.get("seekwell.queued_nanos").getUnit());
      assertEquals("{error}", before.get("seekwell.errors_throttled").getUnit());
      assertTrue(before.get("seekwell.get_requests").getLongSumData().isMonotonic());

      // Two factories of 1 GET of 100 bytes each, one of them closed.
      ReadFactories.readOnce(7, true);
      S3SeekableInputStreamFactory open = ReadFactories.readOnce(7, false);
      try {
        Map<String, MetricData> after = byName(reader);
        assertEquals(
            value(before, "seekwell.get_requests") + 2, value(after, "seekwell.get_requests"));
        assertEquals(
            value(before, "seekwell.bytes_received") + 200,
            value(after, "seekwell.bytes_received"));
        assertEquals(
            S3SeekableInputStreamFactory.jvmMetrics().get(Metric.GET_REQUESTS),
            value(after, "seekwell.get_requests"));
      } finally {
        open.close();
        published.close();
      }
    }
  }

  @Test
  void closingThePublishingStopsIt() {
    InMemoryMetricReader reader = InMemoryMetricReader.create();
    try (OpenTelemetrySdk sdk =
        OpenTelemetrySdk.builder()
            .setMeterProvider(SdkMeterProvider.builder().registerMetricReader(reader).build())
            .build()) {
      SeekwellMetrics.publish(sdk).close();
      assertEquals(Map.of(), byName(reader));
    }
  }

  /** The example of docs/connectors.md: Prometheus scrapes the counters over HTTP. */
  @Test
  void prometheusScrapesTheCounters() throws Exception {
    int port;
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort();
    }
    try (OpenTelemetrySdk sdk =
        OpenTelemetrySdk.builder()
            .setMeterProvider(
                SdkMeterProvider.builder()
                    .registerMetricReader(
                        PrometheusHttpServer.builder().setHost("127.0.0.1").setPort(port).build())
                    .build())
            .build()) {
      BatchCallback published = SeekwellMetrics.publish(sdk);
      S3SeekableInputStreamFactory open = ReadFactories.readOnce(7, false);
      HttpResponse<String> scrape;
      try {
        scrape = scrape(port);
      } finally {
        open.close();
        published.close();
      }
      assertEquals(200, scrape.statusCode());
      Map<String, Long> samples = new TreeMap<>();
      for (String line : scrape.body().lines().toList()) {
        if (line.startsWith("seekwell_")) {
          String[] fields = line.split(" ");
          samples.put(
              fields[0].replaceAll("\\{.*\\}", ""),
              (long) Double.parseDouble(fields[fields.length - 1]));
        }
      }
      assertTrue(samples.get("seekwell_get_requests_total") >= 1, samples::toString);
      assertTrue(samples.get("seekwell_bytes_received_bytes_total") >= 100, samples::toString);
      assertTrue(samples.containsKey("seekwell_prefetched_bytes_unused_bytes_total"));
      assertEquals(Metric.values().length, samples.size(), samples.keySet()::toString);
    }
  }

  /** What Prometheus would get from the exporter's HTTP server on {@code port}. */
  private static HttpResponse<String> scrape(int port) throws IOException, InterruptedException {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics")).build(),
            HttpResponse.BodyHandlers.ofString());
  }

  private static Map<String, MetricData> byName(InMemoryMetricReader reader) {
    return reader.collectAllMetrics().stream()
        .filter(metric -> metric.getInstrumentationScopeInfo().getName().equals("io.seekwell"))
        .collect(
            Collectors.toMap(MetricData::getName, metric -> metric, (a, b) -> a, TreeMap::new));
  }

  private static long value(Map<String, MetricData> metrics, String name) {
    return metrics.get(name).getLongSumData().getPoints().stream()
        .mapToLong(LongPointData::getValue)
        .sum();
  }
}
