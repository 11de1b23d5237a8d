package io.seekwell.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** Waits, for the scripts, until a URL answers 200 (at most 30 seconds); exits 1 otherwise. */
public final class AwaitHttp {

  private AwaitHttp() {}

  public static void main(String[] args) throws InterruptedException {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(args[0])).timeout(Duration.ofSeconds(2)).build();
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (System.nanoTime() < deadline) {
      try {
        if (http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
          return;
        }
      } catch (IOException notYet) {
        // Still starting.
      }
      Thread.sleep(200);
    }
    System.err.println("Timed out waiting for " + args[0]);
    System.exit(1);
  }
}
