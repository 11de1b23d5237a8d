package io.seekwell.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
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
      for (JarEntry entry : Collections.list(jar.entries())) {
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

  /**
   * What each package of a bundle comes from: Seekwell's modules by their packages, the relocated
   * libraries by their directory under {@code io/seekwell/shaded/}; the longest prefix wins.
   */
  private static final Map<String, String> ARTIFACT_BY_PACKAGE =
      Map.ofEntries(
          Map.entry("io/seekwell/shaded/caffeine/", "caffeine"),
          Map.entry("io/seekwell/shaded/parquet/", "parquet-format-structures"),
          Map.entry("io/seekwell/shaded/orc/", "orc-format"),
          Map.entry("io/seekwell/shaded/aircompressor/", "aircompressor"),
          Map.entry("io/seekwell/parquet/connector/", "seekwell-connector-parquet"),
          Map.entry("io/seekwell/parquet/", "seekwell-parquet-logical-io"),
          Map.entry("io/seekwell/orc/", "seekwell-orc-logical-io"),
          Map.entry("io/seekwell/iceberg/", "seekwell-connector-iceberg"),
          Map.entry("io/seekwell/hadoop/", "seekwell-connector-hadoop"),
          Map.entry("io/seekwell/common/", "seekwell-common"),
          Map.entry("io/seekwell/client/", "seekwell-object-client"),
          Map.entry("io/seekwell/", "seekwell-input-stream"));

  @ParameterizedTest
  @ValueSource(strings = {"seekwell.iceberg.bundle", "seekwell.hadoop.bundle"})
  void theBillOfMaterialsNamesExactlyWhatTheBundleHolds(String property) throws IOException {
    String path = System.getProperty(property);
    String bom = System.getProperty(property + ".bom");
    assertTrue(bom != null && bom.endsWith(".json"), property + ".bom = " + bom);
    TreeSet<String> held = new TreeSet<>();
    try (JarFile jar = new JarFile(path)) {
      for (JarEntry entry : Collections.list(jar.entries())) {
        if (entry.getName().endsWith(".class")) {
          held.add(artifactOf(entry.getName()));
        }
      }
    }
    TreeSet<String> named = new TreeSet<>();
    for (JsonNode component : new ObjectMapper().readTree(new File(bom)).path("components")) {
      named.add(component.path("name").asText());
    }
    assertEquals(held, named, bom);
  }

  private static String artifactOf(String classFile) {
    List<String> candidates =
        ARTIFACT_BY_PACKAGE.keySet().stream()
            .filter(classFile::startsWith)
            .sorted(Comparator.comparingInt(String::length).reversed())
            .toList();
    assertTrue(!candidates.isEmpty(), classFile + " comes from no known artifact");
    return ARTIFACT_BY_PACKAGE.get(candidates.get(0));
  }
}
