package io.seekwell.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.logical.FormatPlugin;
import io.seekwell.parquet.ParquetFormatPlugin;
import io.seekwell.testing.S3TestBucket;
import io.seekwell.testing.TestData;
import io.seekwell.testing.WithS3Server;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

/**
 * The README's "Use" example: the README shows this module's {@link ReadFromS3} as it is, and it
 * runs against a real MinIO as written.
 */
@WithS3Server
class ReadFromS3MinioTest {

  private static final Path EXAMPLE = Path.of("src/main/java/io/seekwell/examples/ReadFromS3.java");
  private static final Path README = Path.of("../README.md");

  @Test
  void theExampleReadsAnObjectFromAnS3CompatibleStore(S3TestBucket bucket) throws Exception {
    byte[] bytes = TestData.randomBytes(41, 100_000);
    bucket.put("data/sample.bin", bytes);
    PrintStream stdout = System.out;
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
    try {
      ReadFromS3.main(
          new String[] {
            "s3://" + bucket.name() + "/data/sample.bin",
            bucket.endpoint().uri().toString(),
            bucket.endpoint().accessKey(),
            bucket.endpoint().secretKey()
          });
    } finally {
      System.setOut(stdout);
    }
    HexFormat hex = HexFormat.of();
    assertEquals(
        "100000 bytes, first 8: "
            + hex.formatHex(Arrays.copyOf(bytes, 8))
            + ", last 8: "
            + hex.formatHex(Arrays.copyOfRange(bytes, bytes.length - 8, bytes.length))
            + System.lineSeparator(),
        printed.toString(StandardCharsets.UTF_8));
  }

  @Test
  void theReadmeShowsTheExampleAsItIsAndTheArtifactsItNeeds() throws Exception {
    String readme = Files.readString(README);
    String example = Files.readString(EXAMPLE);
    assertTrue(readme.contains("```java\n" + example + "```\n"), "README.md shows " + EXAMPLE);
    for (String artifact : new String[] {"seekwell-input-stream", "seekwell-parquet-logical-io"}) {
      assertTrue(
          readme.contains("<artifactId>" + artifact + "</artifactId>"),
          "README.md names " + artifact);
    }
  }

  @Test
  void theReadmesArtifactsBringTheParquetPrefetch() {
    // Factories find their format plug-ins with the ServiceLoader, as here.
    assertTrue(
        ServiceLoader.load(FormatPlugin.class).stream()
            .anyMatch(plugin -> plugin.type() == ParquetFormatPlugin.class));
  }
}
