package io.seekwell.spark;

import io.seekwell.testing.S3Endpoint;
import io.seekwell.testing.SharedS3Server;
import io.seekwell.testing.hadoop.SeekwellS3a;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * The MinIO server of these tests, and a few bucket operations through the engine's own AWS SDK
 * (whichever of the run's class path: Iceberg's bundle or hadoop-aws's).
 */
final class TestStore {

  private TestStore() {}

  static S3Endpoint endpoint() {
    return SharedS3Server.endpoint();
  }

  private static S3Client client() {
    S3Endpoint endpoint = endpoint();
    return S3Client.builder()
        .endpointOverride(endpoint.uri())
        .region(Region.US_EAST_1)
        .forcePathStyle(true)
        .credentialsProvider(
            StaticCredentialsProvider.create(
                AwsBasicCredentials.create(endpoint.accessKey(), endpoint.secretKey())))
        .build();
  }

  /**
   * The S3A settings that read this store through Seekwell's stream factory, without the {@code
   * spark.hadoop.} prefix, in a map the caller may change.
   */
  static Map<String, String> s3aSettings() {
    return SeekwellS3a.settings(endpoint());
  }

  /**
   * The lines this JVM has logged so far through Seekwell's loggers whose logger is named {@code
   * logger} (the test configuration of log4j2 writes Seekwell's log to the file named by the system
   * property {@code seekwell.log.file}, with the logger's simple name on each line).
   */
  static List<String> seekwellLog(String logger) {
    try {
      return Files.readAllLines(Path.of(System.getProperty("seekwell.log.file"))).stream()
          .filter(line -> line.contains(" " + logger + ": "))
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Creates {@code bucket}; returns its name. */
  static String bucket(String bucket) {
    try (S3Client s3 = client()) {
      s3.createBucket(b -> b.bucket(bucket));
    }
    return bucket;
  }

  /** Copies every object under {@code prefix} of {@code from} to the same key in {@code to}. */
  static void copy(String from, String prefix, String to) {
    try (S3Client s3 = client()) {
      for (String key : keys(s3, from, prefix)) {
        s3.copyObject(
            b -> b.sourceBucket(from).sourceKey(key).destinationBucket(to).destinationKey(key));
      }
    }
  }

  /** The keys under {@code prefix} of {@code bucket}. */
  static List<String> keys(String bucket, String prefix) {
    try (S3Client s3 = client()) {
      return keys(s3, bucket, prefix);
    }
  }

  private static List<String> keys(S3Client s3, String bucket, String prefix) {
    return s3.listObjectsV2Paginator(b -> b.bucket(bucket).prefix(prefix)).contents().stream()
        .map(S3Object::key)
        .toList();
  }
}
