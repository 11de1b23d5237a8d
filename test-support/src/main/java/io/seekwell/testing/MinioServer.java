package io.seekwell.testing;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import javax.net.ssl.SSLContext;

/**
 * A MinIO server process on a free port of 127.0.0.1, with its own temporary data folder, started
 * from a local binary. {@link #close()} stops the process and deletes the folder.
 */
public final class MinioServer implements AutoCloseable {

  private static final String ACCESS_KEY = "seekwell-test";
  private static final String SECRET_KEY = "seekwell-test-secret";
  private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

  private final Process process;
  private final Path workDirectory;
  private final S3Endpoint endpoint;

  private MinioServer(Process process, Path workDirectory, S3Endpoint endpoint) {
    this.process = process;
    this.workDirectory = workDirectory;
    this.endpoint = endpoint;
  }

  /** Starts MinIO over plain HTTP. */
  public static MinioServer start(Path binary) throws IOException {
    return start(binary, false);
  }

  /**
   * Starts MinIO, over TLS with a fresh self-signed certificate when {@code tls} is set (MinIO
   * accepts SSE-C only over TLS).
   */
  public static MinioServer start(Path binary, boolean tls) throws IOException {
    Path work = Files.createTempDirectory("seekwell-minio-");
    Path certs = Files.createDirectories(work.resolve("certs"));
    Optional<SelfSignedCertificate> certificate =
        tls ? Optional.of(SelfSignedCertificate.create(certs)) : Optional.empty();
    int port = freePort();
    int consolePort = freePort();
    List<String> command = new ArrayList<>();
    command.add(binary.toString());
    command.add("server");
    command.add("--quiet");
    command.add("--address");
    command.add("127.0.0.1:" + port);
    command.add("--console-address");
    command.add("127.0.0.1:" + consolePort);
    command.add("--certs-dir");
    command.add(certs.toString());
    command.add(work.resolve("data").toString());
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().put("MINIO_ROOT_USER", ACCESS_KEY);
    builder.environment().put("MINIO_ROOT_PASSWORD", SECRET_KEY);
    builder.environment().put("MINIO_BROWSER", "off");
    builder.environment().put("MINIO_UPDATE", "off");
    builder.redirectErrorStream(true).redirectOutput(work.resolve("minio.log").toFile());
    Process process = builder.start();
    URI uri = URI.create((tls ? "https" : "http") + "://127.0.0.1:" + port);
    MinioServer server =
        new MinioServer(process, work, new S3Endpoint(uri, ACCESS_KEY, SECRET_KEY, certificate));
    try {
      server.awaitHealthy();
    } catch (IOException | RuntimeException e) {
      server.close();
      throw e;
    }
    return server;
  }

  /** Where the server listens and how to sign in. */
  public S3Endpoint endpoint() {
    return endpoint;
  }

  private void awaitHealthy() throws IOException {
    HttpClient http = healthClient();
    HttpRequest request =
        HttpRequest.newBuilder(endpoint.uri().resolve("/minio/health/live"))
            .timeout(Duration.ofSeconds(2))
            .build();
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IOException("MinIO exited with " + process.exitValue() + ": " + log());
      }
      try {
        if (http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
          return;
        }
      } catch (IOException notYet) {
        // The server is still starting.
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("Interrupted while waiting for MinIO", e);
      }
      sleep(100);
    }
    throw new IOException("MinIO was not healthy after " + START_TIMEOUT + ": " + log());
  }

  private HttpClient healthClient() throws IOException {
    HttpClient.Builder builder = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2));
    if (endpoint.certificate().isPresent()) {
      try {
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, endpoint.certificate().get().trustManagers(), null);
        builder.sslContext(context);
      } catch (GeneralSecurityException e) {
        throw new IOException("Cannot trust the test certificate", e);
      }
    }
    return builder.build();
  }

  private String log() {
    try {
      return Files.readString(workDirectory.resolve("minio.log"), StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "(no log: " + e + ")";
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  private static void sleep(long millis) throws IOException {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("Interrupted while waiting for MinIO", e);
    }
  }

  @Override
  public void close() {
    Processes.stop(process);
    deleteRecursively(workDirectory);
  }

  private static void deleteRecursively(Path root) {
    try (Stream<Path> paths = Files.walk(root)) {
      paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    } catch (IOException e) {
      // Leaving a temporary folder behind is harmless.
    }
  }
}
