package io.seekwell.client;

import java.time.Duration;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.http.nio.netty.NettyNioAsyncHttpClient;
import software.amazon.awssdk.services.s3.crt.S3CrtHttpConfiguration;
import software.amazon.awssdk.services.s3.crt.S3CrtRetryConfiguration;

/**
 * SDK client settings that match an {@link ObjectClientConfiguration}: connect timeout, idle
 * timeout between body bytes, connection pool size, and the SDK's own retries turned off (Seekwell
 * retries in {@link RetryingObjectClient}; two retry layers would multiply attempts). Use them when
 * building the SDK client an object client will wrap:
 *
 * <pre>{@code
 * S3AsyncClient s3 = S3AsyncClient.builder()
 *     .httpClientBuilder(SdkClients.nettyHttpClient(config))
 *     .overrideConfiguration(SdkClients.withoutSdkRetries())
 *     .build();
 * }</pre>
 */
public final class SdkClients {

  /** The slowest body transfer, in bytes per second, the CRT client tolerates before aborting. */
  private static final long CRT_MINIMUM_THROUGHPUT = 1;

  private SdkClients() {}

  /** A Netty HTTP client builder for {@code S3AsyncClient.builder()}. */
  public static NettyNioAsyncHttpClient.Builder nettyHttpClient(
      ObjectClientConfiguration configuration) {
    return NettyNioAsyncHttpClient.builder()
        .connectionTimeout(configuration.connectTimeout())
        .readTimeout(configuration.readIdleTimeout())
        .maxConcurrency(configuration.maxConnections())
        .connectionAcquisitionTimeout(acquisitionTimeout(configuration));
  }

  /** An Apache HTTP client builder for {@code S3Client.builder()}. */
  public static Apache5HttpClient.Builder apacheHttpClient(
      ObjectClientConfiguration configuration) {
    return Apache5HttpClient.builder()
        .connectionTimeout(configuration.connectTimeout())
        .socketTimeout(configuration.readIdleTimeout())
        .maxConnections(configuration.maxConnections())
        .connectionAcquisitionTimeout(acquisitionTimeout(configuration));
  }

  /**
   * HTTP settings for {@code S3AsyncClient.crtBuilder()}: the idle timeout becomes a minimum
   * throughput of 1 byte per second over that time.
   */
  public static S3CrtHttpConfiguration crtHttpConfiguration(
      ObjectClientConfiguration configuration) {
    return S3CrtHttpConfiguration.builder()
        .connectionTimeout(configuration.connectTimeout())
        .connectionHealthConfiguration(
            health ->
                health
                    .minimumThroughputInBps(CRT_MINIMUM_THROUGHPUT)
                    .minimumThroughputTimeout(configuration.readIdleTimeout()))
        .build();
  }

  /**
   * CRT retry settings: the CRT retries inside itself (with exponential backoff and full jitter)
   * and resumes failed bodies itself, and this cannot be turned off (0 retries means its default of
   * 10). So over the CRT client the retries happen in the CRT, {@code maxAttempts - 1} of them, and
   * the object client should not be wrapped in a {@link RetryingObjectClient}; the backoff base,
   * cap and deadline settings do not apply, and Seekwell's metrics count one GET per request it
   * made, not per CRT retry.
   */
  public static S3CrtRetryConfiguration crtRetryConfiguration(
      ObjectClientConfiguration configuration) {
    return S3CrtRetryConfiguration.builder()
        .numRetries(Math.max(1, configuration.maxAttempts() - 1))
        .build();
  }

  /** Client settings with the SDK's own retries off. */
  public static ClientOverrideConfiguration withoutSdkRetries() {
    return ClientOverrideConfiguration.builder()
        .retryStrategy(AwsRetryStrategy.doNotRetry())
        .build();
  }

  private static Duration acquisitionTimeout(ObjectClientConfiguration configuration) {
    return configuration.firstByteTimeout();
  }
}
