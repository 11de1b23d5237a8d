package io.seekwell.testing;

import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketAlreadyOwnedByYouException;

/**
 * The S3 server for tests that cannot use {@link WithS3Server} (Hadoop's JUnit 4 contract tests):
 * found or started like the extension's (an {@code S3_ENDPOINT}, a MinIO binary, Docker, else a
 * failure with instructions) on first use, and stopped when the test JVM exits. Thread-safe.
 */
public final class SharedS3Server {

  private static S3ServerExtension.RunningServer server;

  private SharedS3Server() {}

  /** The server's endpoint, starting it on the first call. */
  public static synchronized S3Endpoint endpoint() {
    if (server == null) {
      server =
          S3ServerExtension.startServer(
              false,
              System.getenv(),
              () -> MinioBinary.locate(System.getenv()),
              S3ServerExtension::dockerAvailable);
      Runtime.getRuntime().addShutdownHook(new Thread(server::close, "s3-test-server-stop"));
    }
    return server.endpoint();
  }

  /** Creates {@code bucket} on the server unless it exists; returns its name. */
  public static String bucket(String bucket) {
    try (S3Client admin = endpoint().newAdminClient()) {
      admin.createBucket(b -> b.bucket(bucket));
    } catch (BucketAlreadyOwnedByYouException e) {
      // Created by an earlier test class of this JVM.
    }
    return bucket;
  }
}
