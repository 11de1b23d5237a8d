package io.seekwell.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where the test server comes from, and the message when there is none. */
class S3ServerExtensionTest {

  @Test
  void noServerAnywhereFailsWithInstructions() {
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class,
            () -> S3ServerExtension.startServer(false, Map.of(), Optional::empty, () -> false));
    assertEquals(S3ServerExtension.HOW_TO_INSTALL, e.getMessage());
  }

  @Test
  void tlsWithoutAMinioBinaryFailsWithInstructions() {
    Map<String, String> plainEndpoint =
        Map.of("S3_ENDPOINT", "http://127.0.0.1:9000", "S3_ACCESS_KEY", "a", "S3_SECRET_KEY", "b");
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class,
            () -> S3ServerExtension.startServer(true, plainEndpoint, Optional::empty, () -> true));
    assertEquals(S3ServerExtension.HOW_TO_INSTALL_FOR_TLS, e.getMessage());
  }

  @Test
  void configuredEndpointComesFirst() {
    Map<String, String> env =
        Map.of(
            "S3_ENDPOINT", "https://s3.example.test", "S3_ACCESS_KEY", "a", "S3_SECRET_KEY", "b");
    S3ServerExtension.RunningServer server =
        S3ServerExtension.startServer(
            true,
            env,
            () -> {
              throw new AssertionError("must not look for MinIO");
            },
            () -> {
              throw new AssertionError("must not look for Docker");
            });
    assertEquals(URI.create("https://s3.example.test"), server.endpoint().uri());
    assertEquals("a", server.endpoint().accessKey());
  }

  @Test
  void configuredEndpointNeedsCredentials() {
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class,
            () ->
                S3ServerExtension.startServer(
                    false,
                    Map.of("S3_ENDPOINT", "http://127.0.0.1:9000"),
                    Optional::empty,
                    () -> false));
    assertEquals("S3_ENDPOINT is set: set S3_ACCESS_KEY and S3_SECRET_KEY too", e.getMessage());
  }

  @Test
  void minioBinFromTheEnvironmentMustBeExecutable(@TempDir Path dir) throws Exception {
    Path notExecutable = Files.writeString(dir.resolve("minio"), "not a program");
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class,
            () -> MinioBinary.locate(Map.of("MINIO_BIN", notExecutable.toString())));
    assertEquals("MINIO_BIN=" + notExecutable + " is not an executable file", e.getMessage());
  }

  @Test
  void minioIsFoundOnThePath(@TempDir Path dir) throws Exception {
    Path binary = Files.writeString(dir.resolve("minio"), "#!/bin/sh\n");
    binary.toFile().setExecutable(true);
    System.setProperty("seekwell.tools.dir", dir.resolve("no-cache").toString());
    try {
      assertEquals(Optional.of(binary), MinioBinary.locate(Map.of("PATH", "/nonexistent:" + dir)));
    } finally {
      System.clearProperty("seekwell.tools.dir");
    }
  }
}
