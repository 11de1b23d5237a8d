package io.seekwell.bench.store;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** Waits, for the scripts, until a URL answers 200 (at most 30 seconds); exits 1 otherwise. */
public final class AwaitHttp {

  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  private AwaitHttp() {}

  public static void main(String[] args) throws InterruptedException {
    if (!await(URI.create(args[0]))) {
      System.err.println("Timed out waiting for " + args[0]);
      System.exit(1);
    }
  }

  /** Returns whether {@code url} answered 200 within 30 seconds. */
  static boolean await(URI url) throws InterruptedException {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
    HttpRequest request = HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(2)).build();
    long deadline = System.nanoTime() + TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      try {
        if (http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
          return true;
        }
      } catch (IOException notYet) {
        // Still starting.
      }
      Thread.sleep(200);
    }
    return false;
  }
}
