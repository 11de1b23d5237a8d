package io.seekwell.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Each connector bundle holds Seekwell's classes and its relocated libraries only, so nothing in it
 * can meet a class of the engine's: every class lies under {@code io/seekwell/}, and the libraries
 * engines also ship (Caffeine, parquet-format-structures with its Thrift, and the ORC plug-in's
 * orc-format with its protobuf and aircompressor) under {@code io/seekwell/shaded/}.
 */
class BundleContentsTest {

  private static final List<String> ALLOWED_PREFIXES =
      List.of(
          "io/seekwell/",
          "META-INF/services/io.seekwell.",
          // S3aStreamSupportCheck, the one file system of Hadoop's service list in a bundle
          "META-INF/services/org.apache.hadoop.fs.FileSystem",
          "META-INF/LICENSE",
          "META-INF/NOTICE",
          "META-INF/DEPENDENCIES");

  @ParameterizedTest
  @ValueSource(strings = {"seekwell.iceberg.bundle", "seekwell.hadoop.bundle"})
  void everyEntryIsSeekwellsOrRelocated(String property) throws IOException {
    String path = System.getProperty(property);
    assertTrue(path != null && path.endsWith(".jar"), property + " = " + path);
    TreeSet<String> unexpected = new TreeSet<>();
    TreeSet<String> shaded = new TreeSet<>();
    try (JarFile jar = new JarFile(path)) {
      for (JarEntry entry : java.util.Collections.list(jar.entries())) {
        String name = entry.getName();
        if (entry.isDirectory() || name.equals("META-INF/MANIFEST.MF")) {
          continue;
        }
        if (ALLOWED_PREFIXES.stream().noneMatch(name::startsWith)) {
          unexpected.add(name);
        }
        if (name.startsWith("io/seekwell/shaded/")) {
          shaded.add(name.split("/")[3]);
        }
      }
    }
    assertEquals(new TreeSet<>(), unexpected, path);
    assertEquals(
        new TreeSet<>(List.of("aircompressor", "caffeine", "orc", "parquet")), shaded, path);
  }
}
