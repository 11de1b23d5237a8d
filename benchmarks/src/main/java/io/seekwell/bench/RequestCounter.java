package io.seekwell.bench;

import java.util.concurrent.atomic.AtomicLong;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;

/**
 * Counts, outside the code under test, the GETs and HEADs an SDK client sends and the body bytes
 * its responses announce. Thread-safe.
 */
final class RequestCounter implements ExecutionInterceptor {

  private final AtomicLong gets = new AtomicLong();
  private final AtomicLong heads = new AtomicLong();
  private final AtomicLong bytes = new AtomicLong();

  @Override
  public void beforeTransmission(
      Context.BeforeTransmission context, ExecutionAttributes attributes) {
    switch (context.httpRequest().method()) {
      case GET -> gets.incrementAndGet();
      case HEAD -> heads.incrementAndGet();
      default -> {}
    }
  }

  @Override
  public void afterTransmission(Context.AfterTransmission context, ExecutionAttributes attributes) {
    if (context.httpRequest().method() == software.amazon.awssdk.http.SdkHttpMethod.GET) {
      context
          .httpResponse()
          .firstMatchingHeader("Content-Length")
          .ifPresent(length -> bytes.addAndGet(Long.parseLong(length)));
    }
  }

  long gets() {
    return gets.get();
  }

  long heads() {
    return heads.get();
  }

  long bytes() {
    return bytes.get();
  }
}
