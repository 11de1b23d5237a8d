package io.seekwell.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URL;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * With the documented set on the class path (the engine's jars and one Seekwell bundle, as each
 * test run of this module has them), no class of the bundle can also be found in another jar: the
 * engine's copy and Seekwell's never meet, whichever comes first.
 */
class BundleOnClassPathTest {

  @Test
  void noClassOfTheBundleIsAlsoInAnotherJar() throws IOException {
    ClassLoader loader = getClass().getClassLoader();
    List<Path> bundles =
        Stream.of("seekwell.iceberg.bundle", "seekwell.hadoop.bundle")
            .map(property -> Path.of(System.getProperty(property)))
            .filter(bundle -> onClassPath(bundle, loader))
            .toList();
    assertEquals(1, bundles.size(), "the bundles on this test run's class path: " + bundles);

    Map<String, List<URL>> twice = new TreeMap<>();
    int classes = 0;
    try (JarFile jar = new JarFile(bundles.get(0).toFile())) {
      for (JarEntry entry : Collections.list(jar.entries())) {
        if (entry.getName().endsWith(".class")) {
          classes++;
          List<URL> found = Collections.list(loader.getResources(entry.getName()));
          if (found.size() != 1) {
            twice.put(entry.getName(), found);
          }
        }
      }
    }
    assertEquals(Map.of(), twice, classes + " classes of " + bundles.get(0));
  }

  private static boolean onClassPath(Path bundle, ClassLoader loader) {
    try {
      return Collections.list(loader.getResources("io/seekwell/common/Version.class")).stream()
          .map(BundleOnClassPathTest::jarOf)
          .anyMatch(bundle::equals);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The jar a {@code jar:file:…!/entry} URL points into. */
  private static Path jarOf(URL url) {
    String file = url.getPath();
    return Path.of(URI.create(file.substring(0, file.indexOf("!/"))));
  }
}
