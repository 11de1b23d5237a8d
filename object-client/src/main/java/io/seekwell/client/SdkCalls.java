package io.seekwell.client;

import io.seekwell.common.concurrent.Futures;
import io.seekwell.common.object.GetRequest;
import io.seekwell.common.object.ObjectContent;
import io.seekwell.common.object.RequestOptions;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;
import software.amazon.awssdk.awscore.AwsRequestOverrideConfiguration;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;

/**
 * What every SDK-based object client does alike with a call's outcome (the async and sync clients
 * here, and a connector's client over its engine's S3 client). Stateless.
 */
public final class SdkCalls {

  private SdkCalls() {}

  /**
   * {@code call}, its failure translated and its result mapped by {@code onSuccess}. Cancelling the
   * returned future cancels the SDK future, and with it the HTTP exchange behind it. Timeouts are
   * the {@link RetryingObjectClient}'s, which every read path goes through.
   */
  public static <T, R> CompletableFuture<R> complete(
      CompletableFuture<T> call, String what, Function<T, R> onSuccess) {
    return Futures.cancelThrough(
        call.handle(
            (result, failure) -> {
              if (failure != null) {
                throw new CompletionException(S3Errors.translate(failure, what));
              }
              return onSuccess.apply(result);
            }),
        call,
        SdkCalls::abort);
  }

  /**
   * A blocking call's request overrides: {@code overrides} plus, if {@code options} carry a {@link
   * RequestOptions#headersTimeout() headers timeout}, that as the SDK's API-call timeout. A
   * blocking SDK call cannot be cancelled from another thread; with this the SDK aborts it, closing
   * its connection, when the resilience layer gives up on it, instead of holding a thread and a
   * connection until the socket times out. (The timeout covers the call up to the response headers
   * only: the body is read after the call has returned.)
   */
  public static AwsRequestOverrideConfiguration abortingWhenGivenUp(
      Optional<AwsRequestOverrideConfiguration> overrides, RequestOptions options) {
    AwsRequestOverrideConfiguration.Builder builder =
        overrides
            .map(AwsRequestOverrideConfiguration::toBuilder)
            .orElseGet(AwsRequestOverrideConfiguration::builder);
    options.headersTimeout().ifPresent(builder::apiCallTimeout);
    return builder.build();
  }

  /** Aborts a response nobody is going to read, so that its connection is not reused. */
  static void abort(Object response) {
    if (response instanceof ResponseInputStream<?> stream) {
      stream.abort();
    }
  }

  /** The content of a GET response, its body checked, counted and abortable. */
  public static ObjectContent content(
      GetRequest request, ResponseInputStream<GetObjectResponse> stream, String what) {
    Long declared = stream.response().contentLength();
    return new ObjectContent(
        request.range(),
        stream.response().eTag(),
        new ResponseBodyStream(
            stream,
            stream::abort,
            request.range().length(),
            declared == null ? -1 : declared,
            what),
        objectLength(stream.response().contentRange()));
  }

  /**
   * The object's length a {@code Content-Range} header gives ({@code bytes 0-499/1000}), or empty
   * if there is no such header or it does not give the length ({@code bytes 0-499/*}).
   */
  static OptionalLong objectLength(String contentRange) {
    if (contentRange == null) {
      return OptionalLong.empty();
    }
    int slash = contentRange.lastIndexOf('/');
    String total = slash < 0 ? "" : contentRange.substring(slash + 1).trim();
    if (total.isEmpty() || !total.chars().allMatch(c -> c >= '0' && c <= '9')) {
      return OptionalLong.empty();
    }
    try {
      return OptionalLong.of(Long.parseLong(total));
    } catch (NumberFormatException e) {
      return OptionalLong.empty(); // more digits than a long holds
    }
  }
}
