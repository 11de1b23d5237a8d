package io.seekwell.client;

import io.seekwell.common.object.CustomerKey;
import io.seekwell.common.object.GetRequest;
import io.seekwell.common.object.HeadRequest;
import io.seekwell.common.object.ObjectMetadata;
import io.seekwell.common.object.RequestOptions;
import java.util.Optional;
import java.util.regex.Pattern;
import software.amazon.awssdk.awscore.AwsRequestOverrideConfiguration;
import software.amazon.awssdk.core.ApiName;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;

/**
 * Builds SDK requests from Seekwell's and reads SDK responses back. Stateless. Everything the
 * options add (user agent, audit string, SSE-C key) travels as request overrides, so HEAD and GET
 * share one code path for it.
 */
final class SdkRequests {

  private static final String AUDIT_HEADER = "Referer";
  private static final String SSE_C_ALGORITHM_HEADER =
      "x-amz-server-side-encryption-customer-algorithm";
  private static final String SSE_C_KEY_HEADER = "x-amz-server-side-encryption-customer-key";
  private static final String SSE_C_KEY_MD5_HEADER =
      "x-amz-server-side-encryption-customer-key-MD5";
  private static final ApiName SEEKWELL = ApiName.builder().name("seekwell").version("0.1").build();
  private static final Pattern NOT_IN_USER_AGENT = Pattern.compile("[^A-Za-z0-9._/-]");

  /** The overrides of a request without user agent, audit string or SSE-C key: built once. */
  private static final AwsRequestOverrideConfiguration PLAIN =
      AwsRequestOverrideConfiguration.builder().addApiName(SEEKWELL).build();

  private SdkRequests() {}

  static HeadObjectRequest head(HeadRequest request) {
    return HeadObjectRequest.builder()
        .bucket(request.location().bucket())
        .key(request.location().key())
        .overrideConfiguration(overrides(request.options()))
        .build();
  }

  static GetObjectRequest get(GetRequest request) {
    GetObjectRequest.Builder builder =
        GetObjectRequest.builder()
            .bucket(request.location().bucket())
            .key(request.location().key())
            .range(request.range().toHttpRange())
            .overrideConfiguration(overrides(request.options()));
    request.etag().ifPresent(builder::ifMatch);
    return builder.build();
  }

  /** Names a HEAD in messages: {@code HEAD s3://bucket/key}, plus the SSE-C key's MD5 if any. */
  static String describe(HeadRequest request) {
    return "HEAD " + request.location() + keyNote(request.options());
  }

  /** Names a GET in messages: {@code GET s3://bucket/key [0-99]}, plus the SSE-C key's MD5. */
  static String describe(GetRequest request) {
    return "GET " + request.describe() + keyNote(request.options());
  }

  private static String keyNote(RequestOptions options) {
    return options
        .customerKey()
        .map(key -> " with SSE-C key (MD5 " + key.base64KeyMd5() + ")")
        .orElse("");
  }

  static ObjectMetadata metadata(HeadObjectResponse response) {
    return new ObjectMetadata(
        response.contentLength(),
        response.eTag(),
        Optional.ofNullable(response.lastModified()),
        Optional.ofNullable(response.versionId()));
  }

  private static AwsRequestOverrideConfiguration overrides(RequestOptions options) {
    if (options.userAgentSuffix().isEmpty()
        && options.auditInfo().isEmpty()
        && options.customerKey().isEmpty()) {
      return PLAIN;
    }
    AwsRequestOverrideConfiguration.Builder builder =
        AwsRequestOverrideConfiguration.builder().addApiName(SEEKWELL);
    options.userAgentSuffix().ifPresent(suffix -> builder.addApiName(userAgentPart(suffix)));
    options.auditInfo().ifPresent(audit -> builder.putHeader(AUDIT_HEADER, audit));
    options
        .customerKey()
        .ifPresent(
            key ->
                builder
                    .putHeader(SSE_C_ALGORITHM_HEADER, CustomerKey.ALGORITHM)
                    .putHeader(SSE_C_KEY_HEADER, key.base64Key())
                    .putHeader(SSE_C_KEY_MD5_HEADER, key.base64KeyMd5()));
    return builder.build();
  }

  /**
   * A user-agent part {@code name/version} from a suffix such as {@code trino/470} or {@code x}.
   */
  private static ApiName userAgentPart(String suffix) {
    String cleaned = NOT_IN_USER_AGENT.matcher(suffix.trim()).replaceAll("_");
    int slash = cleaned.indexOf('/');
    if (slash > 0 && slash < cleaned.length() - 1) {
      return ApiName.builder()
          .name(cleaned.substring(0, slash))
          .version(cleaned.substring(slash + 1).replace('/', '_'))
          .build();
    }
    return ApiName.builder().name(cleaned.isEmpty() ? "app" : cleaned).version("unknown").build();
  }
}
