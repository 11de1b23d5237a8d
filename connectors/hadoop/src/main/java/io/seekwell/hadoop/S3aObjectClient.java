package io.seekwell.hadoop;

import io.seekwell.client.S3Errors;
import io.seekwell.common.object.GetRequest;
import io.seekwell.common.object.HeadRequest;
import io.seekwell.common.object.ObjectClient;
import io.seekwell.common.object.ObjectContent;
import io.seekwell.common.object.ObjectMetadata;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import org.apache.hadoop.fs.s3a.impl.streams.ObjectInputStreamCallbacks;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;

/**
 * An {@link ObjectClient} that sends each GET through the S3A stream that asked for it (its {@link
 * ObjectInputStreamCallbacks}, passed as the request's caller context): S3A's client, credentials,
 * encryption settings, request headers and audit span. A GET runs on the calling thread (Seekwell's
 * fetch threads, or a reader reading past the memory bound) until its response headers arrive.
 * HEADs are not supported: S3A opens streams with the length and ETag it already has. Thread-safe.
 */
final class S3aObjectClient implements ObjectClient {

  @Override
  public CompletableFuture<ObjectMetadata> headObject(HeadRequest request) {
    return CompletableFuture.failedFuture(
        new UnsupportedOperationException(
            "S3A opens Seekwell streams with the object's length; no HEAD is sent for "
                + request.location()));
  }

  @Override
  public CompletableFuture<ObjectContent> getObject(GetRequest request) {
    ObjectInputStreamCallbacks callbacks =
        request
            .options()
            .callerContext()
            .filter(ObjectInputStreamCallbacks.class::isInstance)
            .map(ObjectInputStreamCallbacks.class::cast)
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "GET of " + request.location() + " without the S3A stream's callbacks"));
    try {
      return CompletableFuture.completedFuture(get(callbacks, request));
    } catch (IOException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  private static ObjectContent get(ObjectInputStreamCallbacks callbacks, GetRequest request)
      throws IOException {
    GetObjectRequest.Builder builder =
        callbacks
            .newGetRequestBuilder(request.location().key())
            .range("bytes=" + request.range().start() + "-" + request.range().end());
    request.etag().ifPresent(builder::ifMatch);
    try {
      ResponseInputStream<GetObjectResponse> body = callbacks.getObject(builder.build());
      return new ObjectContent(request.range(), body.response().eTag(), body);
    } catch (IOException | SdkException e) {
      throw S3Errors.translate(e, "GET " + request.describe());
    }
  }

  @Override
  public void close() {
    // The executor and the S3 client are S3A's.
  }
}
