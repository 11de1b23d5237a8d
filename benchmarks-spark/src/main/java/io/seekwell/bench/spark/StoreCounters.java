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

  /** Counters served at {@code url}. */
  StoreCounters(URI url) {
    this.url = url;
    this.http = HttpClient.newHttpClient();
  }

  /**
   * {@code {gets, bytes}} once they stop changing (two reads 100 ms apart agree, or after 5 s):
   * what a query's reads still in flight as it returns (read-ahead, a body drained) are counted
   * with it, not with the next one.
   */
  long[] settled() throws IOException, InterruptedException {
    long[] last = read();
    for (int i = 0; i < 50; i++) {
      Thread.sleep(100);
      long[] now = read();
      if (java.util.Arrays.equals(now, last)) {
        return now;
      }
      last = now;
    }
    return last;
  }

  /** {@code {gets, bytes}} so far. */
  private long[] read() throws IOException, InterruptedException {
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
