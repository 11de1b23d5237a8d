package io.seekwell.bench.store;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** Just enough of Toxiproxy's HTTP API to put emulated S3 latency in front of a server. */
public final class Toxiproxy {

  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  /** The {@code s3} profile's latency to the first byte. */
  public static final int LATENCY_MILLIS = 25;

  /** The {@code s3} profile's bandwidth per connection. */
  public static final int KILOBYTES_PER_SECOND = 90_000;

  private final URI api;

  public Toxiproxy(URI api) {
    this.api = api;
  }

  /**
   * Puts the {@code s3} profile in front of {@code endpoint} (25 ms downstream latency, 90 MB/s per
   * connection) and returns the proxied endpoint.
   */
  public URI s3Profile(String name, URI endpoint) throws IOException, InterruptedException {
    int port = FreePort.free();
    createS3Profile(name, port, endpoint);
    return URI.create("http://127.0.0.1:" + port);
  }

  /** Creates proxy {@code name} on {@code listenPort} of 127.0.0.1 with the {@code s3} profile. */
  void createS3Profile(String name, int listenPort, URI endpoint)
      throws IOException, InterruptedException {
    createS3LikeProxy(
        name,
        listenPort,
        endpoint.getHost() + ":" + endpoint.getPort(),
        LATENCY_MILLIS,
        KILOBYTES_PER_SECOND);
  }

  /**
   * Creates proxy {@code name} on {@code listenPort} of 127.0.0.1 in front of {@code endpoint} with
   * no toxics: the proxy's own cost, without the latency and the bandwidth limit.
   */
  void createPlainProxy(String name, int listenPort, URI endpoint)
      throws IOException, InterruptedException {
    createProxy(name, listenPort, endpoint.getHost() + ":" + endpoint.getPort());
  }

  /**
   * Creates a proxy on {@code listenPort} of 127.0.0.1 in front of {@code upstream} ({@code
   * host:port}), with a downstream latency and a per-connection bandwidth limit.
   */
  private void createS3LikeProxy(
      String name, int listenPort, String upstream, int latencyMillis, int kilobytesPerSecond)
      throws IOException, InterruptedException {
    createProxy(name, listenPort, upstream);
    post(
        "/proxies/" + name + "/toxics",
        "{\"name\":\"latency\",\"type\":\"latency\",\"stream\":\"downstream\","
            + "\"attributes\":{\"latency\":"
            + latencyMillis
            + ",\"jitter\":0}}");
    post(
        "/proxies/" + name + "/toxics",
        "{\"name\":\"bandwidth\",\"type\":\"bandwidth\",\"stream\":\"downstream\","
            + "\"attributes\":{\"rate\":"
            + kilobytesPerSecond
            + "}}");
  }

  private void createProxy(String name, int listenPort, String upstream)
      throws IOException, InterruptedException {
    post(
        "/proxies",
        "{\"name\":\""
            + name
            + "\",\"listen\":\"127.0.0.1:"
            + listenPort
            + "\",\"upstream\":\""
            + upstream
            + "\",\"enabled\":true}");
  }

  private void post(String path, String json) throws IOException, InterruptedException {
    HttpResponse<String> response =
        http.send(
            HttpRequest.newBuilder(api.resolve(path))
                .timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() / 100 != 2) {
      throw new IOException(
          "Toxiproxy " + path + " answered " + response.statusCode() + ": " + response.body());
    }
  }
}
