package io.seekwell.examples;

import io.seekwell.S3SeekableInputStream;
import io.seekwell.S3SeekableInputStreamConfiguration;
import io.seekwell.S3SeekableInputStreamFactory;
import io.seekwell.S3URI;
import io.seekwell.client.ObjectClientConfiguration;
import io.seekwell.client.SdkClients;
import java.net.URI;
import java.util.HexFormat;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.S3AsyncClientBuilder;

/**
 * Reads the first and last 8 bytes of an object through Seekwell.
 *
 * <p>Arguments: {@code s3://bucket/key}, then for an S3-compatible store its endpoint, access key
 * and secret key. On AWS, give the bucket's region as {@code -Daws.region=...} or {@code
 * AWS_REGION}; credentials come from the SDK's default chain (environment, profile, instance role).
 */
public final class ReadFromS3 {

  private ReadFromS3() {}

  public static void main(String[] args) throws Exception {
    S3AsyncClientBuilder builder =
        S3AsyncClient.builder()
            // Seekwell retries, hedges and resumes by itself: the SDK's own retries are turned off.
            .httpClientBuilder(SdkClients.nettyHttpClient(ObjectClientConfiguration.defaults()))
            .overrideConfiguration(SdkClients.withoutSdkRetries());
    if (args.length == 4) {
      // An S3-compatible store (MinIO, Ceph, ...): its endpoint, path-style addressing, its keys,
      // and any region (the SDK signs with one).
      builder
          .endpointOverride(URI.create(args[1]))
          .forcePathStyle(true)
          .region(Region.US_EAST_1)
          .credentialsProvider(
              StaticCredentialsProvider.create(AwsBasicCredentials.create(args[2], args[3])));
    }
    // One factory serves every stream of the application, on any thread, and shares one cache.
    // Closing (in reverse order here) ends the stream, then the factory's threads and cached
    // bytes, then the SDK client, which Seekwell leaves to its owner.
    try (S3AsyncClient s3 = builder.build();
        S3SeekableInputStreamFactory factory =
            new S3SeekableInputStreamFactory(s3, S3SeekableInputStreamConfiguration.DEFAULT);
        S3SeekableInputStream in = factory.createStream(S3URI.parse(args[0]))) {
      byte[] head = new byte[8];
      in.readFully(0, head, 0, head.length); // positional: the stream's position stays at 0
      byte[] tail = new byte[8];
      in.readTail(tail, 0, tail.length); // the last 8 bytes, where Parquet keeps its footer length
      System.out.println(
          in.length()
              + " bytes, first 8: "
              + HexFormat.of().formatHex(head)
              + ", last 8: "
              + HexFormat.of().formatHex(tail));
    }
  }
}
