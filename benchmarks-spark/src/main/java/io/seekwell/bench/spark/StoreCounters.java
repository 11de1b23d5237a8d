package io.seekwell.bench.spark;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * The store's request counters as the benchmark's proxy in front of it serves them at {@code url}
 * (a line {@code gets bytes}: object GETs forwarded and response bytes sent, of every JVM that read
 * through it), or none when no URL is given (the loopback floor, read without the proxy).
 */
final class StoreCounters {

  private final URI url;
  private final HttpClient http;

  /** Counters served at {@code url}, or none if it is null. */
  StoreCounters(URI url) {
    this.url = url;
    this.http = url == null ? null : HttpClient.newHttpClient();
  }

  /** {@code {gets, bytes}} so far; zeros without a URL. */
  long[] read() throws IOException, InterruptedException {
    if (url == null) {
      return new long[2];
    }
    HttpResponse<String> response =
        http.send(
            HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(10)).build(),
            HttpResponse.BodyHandlers.ofString());
    String[] fields = response.body().trim().split(" ");
    if (response.statusCode() != 200 || fields.length != 2) {
      throw new IOException("Unexpected answer from " + url + ": " + response.body());
    }
    return new long[] {Long.parseLong(fields[0]), Long.parseLong(fields[1])};
  }
}
