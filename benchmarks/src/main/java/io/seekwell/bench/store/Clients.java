package io.seekwell.bench.store;

import io.seekwell.client.ObjectClientConfiguration;
import io.seekwell.client.SdkClients;
import java.net.URI;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.S3BaseClientBuilder;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The SDK clients the demo and every benchmark path get: the same endpoint settings, the SDK's own
 * retries off, and requests counted by the caller's {@link RequestCounter} when one is given.
 */
public final class Clients {

  private Clients() {}

  /** A Netty async client with Seekwell's HTTP settings. */
  public static S3AsyncClient async(
      URI endpoint, StaticCredentialsProvider credentials, RequestCounter counter) {
    return configure(S3AsyncClient.builder(), endpoint, credentials, counter)
        .httpClientBuilder(SdkClients.nettyHttpClient(ObjectClientConfiguration.defaults()))
        .build();
  }

  /**
   * The CRT client built by {@link SdkClients#crtBuilder} for {@code configuration} (its retries
   * inside the CRT, Seekwell's on top with the configuration's defaults; a healthy run retries
   * nothing), counted by {@code counter}.
   */
  public static S3AsyncClient crt(
      URI endpoint,
      StaticCredentialsProvider credentials,
      RequestCounter counter,
      ObjectClientConfiguration configuration) {
    S3AsyncClient crt =
        SdkClients.crtBuilder(configuration)
            .endpointOverride(endpoint)
            .region(Region.US_EAST_1)
            .credentialsProvider(credentials)
            .forcePathStyle(true)
            .build();
    return new CountedCrtClient(crt, counter);
  }

  /**
   * As {@link #async}, with the SDK's default retries (3 attempts, a longer backoff after
   * throttling), as an application that does not retry by itself deploys it.
   */
  public static S3AsyncClient asyncWithSdkRetries(
      URI endpoint, StaticCredentialsProvider credentials, RequestCounter counter) {
    ClientOverrideConfiguration.Builder overrides =
        ClientOverrideConfiguration.builder()
            .retryStrategy(AwsRetryStrategy.defaultRetryStrategy())
            .addExecutionInterceptor(counter);
    return configure(S3AsyncClient.builder(), endpoint, credentials, counter)
        .overrideConfiguration(overrides.build())
        .httpClientBuilder(SdkClients.nettyHttpClient(ObjectClientConfiguration.defaults()))
        .build();
  }

  /**
   * A sync client on the SDK's Apache 4 HTTP client, the one Iceberg's {@code S3FileIO} and S3A use
   * by default (it aborts a body closed early instead of draining it); {@code counter} may be null
   * for set-up work that is not measured.
   */
  @SuppressWarnings("deprecation") // ApacheHttpClient: still the default of Iceberg and S3A
  public static S3Client sync(
      URI endpoint, StaticCredentialsProvider credentials, RequestCounter counter) {
    return configure(S3Client.builder(), endpoint, credentials, counter)
        .httpClientBuilder(ApacheHttpClient.builder())
        .build();
  }

  private static <B extends S3BaseClientBuilder<B, C>, C> B configure(
      B builder, URI endpoint, StaticCredentialsProvider credentials, RequestCounter counter) {
    ClientOverrideConfiguration.Builder overrides = SdkClients.withoutSdkRetries().toBuilder();
    if (counter != null) {
      overrides.addExecutionInterceptor(counter);
    }
    return builder
        .endpointOverride(endpoint)
        .region(Region.US_EAST_1)
        .credentialsProvider(credentials)
        .forcePathStyle(true)
        .overrideConfiguration(overrides.build());
  }
}
