package io.seekwell.client;

import java.time.Duration;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.http.nio.netty.NettyNioAsyncHttpClient;
import software.amazon.awssdk.http.nio.netty.SdkEventLoopGroup;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.S3CrtAsyncClientBuilder;
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

  /** The CRT part size: larger than any GET Seekwell makes. */
  public static final long CRT_PART_SIZE = 64L * 1024 * 1024;

  /** Connections one Netty event loop serves. */
  static final int CONNECTIONS_PER_EVENT_LOOP = 16;

  private SdkClients() {}

  /**
   * A Netty HTTP client builder for {@code S3AsyncClient.builder()}: a pool of {@code
   * client.max.connections} connections served by {@link #eventLoops} event loops, which the client
   * owns and closes.
   */
  public static NettyNioAsyncHttpClient.Builder nettyHttpClient(
      ObjectClientConfiguration configuration) {
    return NettyNioAsyncHttpClient.builder()
        .connectionTimeout(configuration.connectTimeout())
        .readTimeout(configuration.readIdleTimeout())
        .maxConcurrency(configuration.maxConnections())
        .connectionAcquisitionTimeout(acquisitionTimeout(configuration))
        .eventLoopGroupBuilder(
            SdkEventLoopGroup.builder()
                .numberOfThreads(
                    eventLoops(
                        configuration.maxConnections(),
                        Runtime.getRuntime().availableProcessors())));
  }

  /**
   * The Netty event loops for {@code connections} connections on {@code cores} cores: one per
   * {@value #CONNECTIONS_PER_EVENT_LOOP} connections, at least one and at most the SDK's default of
   * two per core. A loop serves many connections; more loops than that only add threads.
   */
  static int eventLoops(int connections, int cores) {
    int wanted = (connections + CONNECTIONS_PER_EVENT_LOOP - 1) / CONNECTIONS_PER_EVENT_LOOP;
    return Math.max(1, Math.min(2 * cores, wanted));
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
   * A CRT client builder set up for Seekwell: at most {@code client.max.connections} requests in
   * flight (the CRT otherwise derives its concurrency from a target throughput), the HTTP settings
   * of {@link #crtHttpConfiguration}, the retries of {@link #crtRetryConfiguration}, and a part
   * size of {@value #CRT_PART_SIZE} bytes so that the CRT never splits one of Seekwell's GETs (at
   * most a few MiB) into several requests.
   *
   * <p>Over the CRT client, closing a body before its end stops delivery but not the transfer of
   * the part in flight: the CRT reads it to the end. Seekwell's GETs are small enough that this
   * costs at most one request's bytes.
   */
  public static S3CrtAsyncClientBuilder crtBuilder(ObjectClientConfiguration configuration) {
    return S3AsyncClient.crtBuilder()
        .maxConcurrency(configuration.maxConnections())
        .httpConfiguration(crtHttpConfiguration(configuration))
        .retryConfiguration(crtRetryConfiguration(configuration))
        .minimumPartSizeInBytes(CRT_PART_SIZE);
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
