package io.seekwell.client;

import io.seekwell.common.concurrent.Futures;
import io.seekwell.common.object.GetRequest;
import io.seekwell.common.object.HeadRequest;
import io.seekwell.common.object.ObjectClient;
import io.seekwell.common.object.ObjectContent;
import io.seekwell.common.object.ObjectMetadata;
import io.seekwell.common.object.RequestOptions;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * One request as a decorator of the resilience layer sends it through the client below: what it is,
 * how it is sent with other options, and how an answer nobody takes is freed. Immutable.
 *
 * @param what the method, object and range, as logs and messages name the request
 * @param send sends the request with the options given
 * @param discard frees an answer that is not the request's (a GET's body is closed)
 */
record Exchange<T>(
    String what, Function<RequestOptions, CompletableFuture<T>> send, Consumer<T> discard) {

  /**
   * Sends the request with {@code options}: its answer, failed with what the client below threw if
   * it threw instead of answering (the layers above classify it, as they do any failure).
   */
  CompletableFuture<T> sendWith(RequestOptions options) {
    try {
      return send.apply(options);
    } catch (RuntimeException | Error e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  /** {@code request}, sent through {@code delegate}. */
  static Exchange<ObjectMetadata> head(ObjectClient delegate, HeadRequest request) {
    return new Exchange<>(
        "HEAD " + request.location(),
        options -> delegate.headObject(new HeadRequest(request.location(), options)),
        metadata -> {});
  }

  /** {@code request}, sent through {@code delegate}. */
  static Exchange<ObjectContent> get(ObjectClient delegate, GetRequest request) {
    return new Exchange<>(
        "GET " + request.describe(),
        options -> delegate.getObject(request.withOptions(options)),
        Futures::closeQuietly);
  }
}
