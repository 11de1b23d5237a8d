package io.seekwell.it;

import io.seekwell.testing.S3TestBucket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.services.s3.S3Client;

/** Counts the GETs a client sends, and records each one's path and range. */
final class GetCounter implements ExecutionInterceptor {

  final AtomicLong gets = new AtomicLong();
  final List<String> requests = new CopyOnWriteArrayList<>();

  /** A client of {@code bucket}'s store whose GETs {@code counter} counts. */
  static S3Client countingClient(S3TestBucket bucket, GetCounter counter) {
    return bucket
        .endpoint()
        .configure(S3Client.builder())
        .overrideConfiguration(o -> o.addExecutionInterceptor(counter))
        .build();
  }

  @Override
  public void beforeTransmission(
      Context.BeforeTransmission context, ExecutionAttributes attributes) {
    if (context.httpRequest().method() == SdkHttpMethod.GET) {
      gets.incrementAndGet();
      requests.add(
          context.httpRequest().encodedPath()
              + " "
              + context.httpRequest().firstMatchingHeader("Range").orElse("whole"));
    }
  }
}
