package io.seekwell.testing;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.MinIOContainer;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * Starts (once per test JVM) a real S3-compatible server and gives each test class a fresh bucket.
 * The server is, in this order:
 *
 * <ol>
 *   <li>the store at {@code S3_ENDPOINT}, signed in with {@code S3_ACCESS_KEY} / {@code
 *       S3_SECRET_KEY};
 *   <li>a MinIO binary from {@code MINIO_BIN}, the project's tool cache ({@code .tools/bin}) or
 *       {@code PATH}, started on a free 127.0.0.1 port with a temporary data folder;
 *   <li>MinIO in Docker through Testcontainers, when a Docker engine answers;
 *   <li>otherwise the test fails with instructions. It is never skipped.
 * </ol>
 *
 * <p>Test classes annotated {@code @WithS3Server(tls = true)} get a MinIO speaking TLS with a
 * self-signed certificate (an {@code https} {@code S3_ENDPOINT} also qualifies).
 */
public final class S3ServerExtension
    implements BeforeAllCallback, AfterAllCallback, ParameterResolver {

  static final String HOW_TO_INSTALL =
      "No S3-compatible server for the tests. Either run ./scripts/install-test-tools.sh (builds"
          + " MinIO with Go into .tools/bin), or set MINIO_BIN to a MinIO binary, or set"
          + " S3_ENDPOINT, S3_ACCESS_KEY and S3_SECRET_KEY to an existing store, or start a"
          + " Docker engine.";

  static final String HOW_TO_INSTALL_FOR_TLS =
      "No S3-compatible server speaking TLS for the SSE-C tests. Either run"
          + " ./scripts/install-test-tools.sh (builds MinIO with Go into .tools/bin), or set"
          + " MINIO_BIN to a MinIO binary, or set S3_ENDPOINT to an https endpoint with"
          + " S3_ACCESS_KEY and S3_SECRET_KEY.";

  private static final String MINIO_IMAGE = "minio/minio:RELEASE.2025-09-07T16-13-09Z";

  private static final ExtensionContext.Namespace NAMESPACE =
      ExtensionContext.Namespace.create(S3ServerExtension.class);

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    WithS3Server annotation = context.getRequiredTestClass().getAnnotation(WithS3Server.class);
    boolean tls = annotation != null && annotation.tls();
    S3Endpoint endpoint = sharedServer(context, tls);
    S3Client admin = endpoint.newAdminClient();
    String bucket = bucketName(context.getRequiredTestClass());
    admin.createBucket(b -> b.bucket(bucket));
    context.getStore(NAMESPACE).put(S3TestBucket.class, new S3TestBucket(endpoint, bucket, admin));
  }

  @Override
  public void afterAll(ExtensionContext context) {
    S3TestBucket bucket =
        context.getStore(NAMESPACE).remove(S3TestBucket.class, S3TestBucket.class);
    if (bucket == null) {
      return;
    }
    try (S3Client admin = bucket.admin()) {
      ListObjectsV2Response listing;
      String token = null;
      do {
        String continuation = token;
        listing = admin.listObjectsV2(b -> b.bucket(bucket.name()).continuationToken(continuation));
        for (S3Object object : listing.contents()) {
          admin.deleteObject(b -> b.bucket(bucket.name()).key(object.key()));
        }
        token = listing.nextContinuationToken();
      } while (token != null);
      admin.deleteBucket(b -> b.bucket(bucket.name()));
    }
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    return type == S3TestBucket.class || type == S3Endpoint.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    S3TestBucket bucket = context.getStore(NAMESPACE).get(S3TestBucket.class, S3TestBucket.class);
    if (bucket == null) {
      throw new ParameterResolutionException("No bucket: is the test class annotated?");
    }
    return parameter.getParameter().getType() == S3Endpoint.class ? bucket.endpoint() : bucket;
  }

  private static S3Endpoint sharedServer(ExtensionContext context, boolean tls) {
    ExtensionContext.Store root = context.getRoot().getStore(NAMESPACE);
    RunningServer server =
        root.getOrComputeIfAbsent(
            tls ? "tls" : "plain",
            key ->
                startServer(
                    tls,
                    System.getenv(),
                    () -> MinioBinary.locate(System.getenv()),
                    S3ServerExtension::dockerAvailable),
            RunningServer.class);
    return server.endpoint();
  }

  /**
   * Starts or finds the server: the store named by {@code env}, else a MinIO binary, else Docker.
   *
   * @throws IllegalStateException with installation instructions when there is none
   */
  static RunningServer startServer(
      boolean tls,
      Map<String, String> env,
      Supplier<Optional<Path>> minioBinary,
      BooleanSupplier docker) {
    Optional<S3Endpoint> configured = configuredEndpoint(env);
    if (configured.isPresent()) {
      S3Endpoint endpoint = configured.get();
      if (!tls || endpoint.uri().getScheme().equals("https")) {
        return new RunningServer(endpoint, () -> {});
      }
    }
    Optional<Path> binary = minioBinary.get();
    if (binary.isPresent()) {
      try {
        MinioServer minio = MinioServer.start(binary.get(), tls);
        return new RunningServer(minio.endpoint(), minio::close);
      } catch (IOException e) {
        throw new IllegalStateException("Could not start MinIO from " + binary.get(), e);
      }
    }
    if (!tls && docker.getAsBoolean()) {
      MinIOContainer container = new MinIOContainer(MINIO_IMAGE);
      container.start();
      S3Endpoint endpoint =
          new S3Endpoint(
              URI.create(container.getS3URL()),
              container.getUserName(),
              container.getPassword(),
              Optional.empty());
      return new RunningServer(endpoint, container::stop);
    }
    throw new IllegalStateException(tls ? HOW_TO_INSTALL_FOR_TLS : HOW_TO_INSTALL);
  }

  private static Optional<S3Endpoint> configuredEndpoint(Map<String, String> env) {
    String endpoint = env.get("S3_ENDPOINT");
    if (endpoint == null || endpoint.isBlank()) {
      return Optional.empty();
    }
    String accessKey = env.get("S3_ACCESS_KEY");
    String secretKey = env.get("S3_SECRET_KEY");
    if (accessKey == null || secretKey == null) {
      throw new IllegalStateException(
          "S3_ENDPOINT is set: set S3_ACCESS_KEY and S3_SECRET_KEY too");
    }
    return Optional.of(
        new S3Endpoint(URI.create(endpoint), accessKey, secretKey, Optional.empty()));
  }

  static boolean dockerAvailable() {
    try {
      return DockerClientFactory.instance().isDockerAvailable();
    } catch (RuntimeException e) {
      return false;
    }
  }

  private static String bucketName(Class<?> testClass) {
    String base = testClass.getSimpleName().toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", "");
    if (base.length() > 40) {
      base = base.substring(0, 40);
    }
    return "sw-" + base + "-" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 16);
  }

  /** A started server; the root store closes it when the test JVM has run every class. */
  record RunningServer(S3Endpoint endpoint, Runnable stopper) implements AutoCloseable {
    @Override
    public void close() {
      stopper.run();
    }
  }
}
