package io.seekwell.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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

  /**
   * Where each package of a bundle comes from, as group:artifact: Seekwell's modules by their
   * packages, the relocated libraries by their directory under {@code io/seekwell/shaded/}. A
   * package not listed fails the test: a new module must be named here and in the bill.
   */
  private static final Map<String, String> ARTIFACT_BY_PACKAGE =
      Map.ofEntries(
          Map.entry("io/seekwell/shaded/caffeine/", "com.github.ben-manes.caffeine:caffeine"),
          Map.entry("io/seekwell/shaded/parquet/", "org.apache.parquet:parquet-format-structures"),
          Map.entry("io/seekwell/shaded/orc/", "org.apache.orc:orc-format"),
          Map.entry("io/seekwell/shaded/aircompressor/", "io.airlift:aircompressor"),
          Map.entry("io/seekwell/parquet/connector/", "io.seekwell:seekwell-connector-parquet"),
          Map.entry("io/seekwell/parquet/", "io.seekwell:seekwell-parquet-logical-io"),
          Map.entry("io/seekwell/orc/", "io.seekwell:seekwell-orc-logical-io"),
          Map.entry("io/seekwell/iceberg/", "io.seekwell:seekwell-connector-iceberg"),
          Map.entry("io/seekwell/hadoop/", "io.seekwell:seekwell-connector-hadoop"),
          Map.entry("io/seekwell/spark/", "io.seekwell:seekwell-connector-spark"),
          Map.entry("io/seekwell/common/", "io.seekwell:seekwell-common"),
          Map.entry("io/seekwell/client/", "io.seekwell:seekwell-object-client"),
          Map.entry("io/seekwell/logical/", "io.seekwell:seekwell-input-stream"),
          Map.entry("io/seekwell/physical/", "io.seekwell:seekwell-input-stream"));

  /** The package of the public stream API, {@code io.seekwell} itself (not its subpackages). */
  private static final String STREAM_API = "io/seekwell/";

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
      named.add(component.path("group").asText() + ":" + component.path("name").asText());
    }
    assertEquals(held, named, bom);
  }

  private static String artifactOf(String classFile) {
    String directory = classFile.substring(0, classFile.lastIndexOf('/') + 1);
    if (directory.equals(STREAM_API)) {
      return "io.seekwell:seekwell-input-stream";
    }
    List<String> candidates =
        ARTIFACT_BY_PACKAGE.keySet().stream()
            .filter(directory::startsWith)
            .sorted(Comparator.comparingInt(String::length).reversed())
            .toList();
    assertFalse(candidates.isEmpty(), classFile + " comes from no known artifact");
    return ARTIFACT_BY_PACKAGE.get(candidates.get(0));
  }
}
