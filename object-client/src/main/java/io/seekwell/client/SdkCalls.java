package io.seekwell.client;

import io.seekwell.common.object.GetRequest;
import io.seekwell.common.object.ObjectContent;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;

/** What the async and the sync SDK object clients do alike with a call's outcome. Stateless. */
final class SdkCalls {

  private SdkCalls() {}

  /**
   * {@code call}, failed with a timeout if it has not completed within {@code firstByteTimeout},
   * its failure translated and its result mapped by {@code onSuccess}. Completing an SDK future
   * exceptionally cancels the HTTP exchange behind it.
   */
  static <T, R> CompletableFuture<R> complete(
      CompletableFuture<T> call, Duration firstByteTimeout, String what, Function<T, R> onSuccess) {
    return call.orTimeout(firstByteTimeout.toMillis(), TimeUnit.MILLISECONDS)
        .handle(
            (result, failure) -> {
              if (failure != null) {
                throw new CompletionException(S3Errors.translate(failure, what));
              }
              return onSuccess.apply(result);
            });
  }

  /** The content of a GET response, its body checked, counted and abortable. */
  static ObjectContent content(
      GetRequest request, ResponseInputStream<GetObjectResponse> stream, String what) {
    return new ObjectContent(
        request.range(),
        stream.response().eTag(),
        new ResponseBodyStream(stream, stream::abort, request.range().length(), what));
  }
}
