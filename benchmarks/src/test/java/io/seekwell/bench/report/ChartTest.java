package io.seekwell.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.seekwell.bench.workloads.Sample;
import io.seekwell.bench.workloads.Workload;
import java.awt.image.BufferedImage;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChartTest {

  @TempDir Path directory;

  @Test
  void drawsPathsThatMissSomeOfAalsWorkloads() throws Exception {
    // Seekwell failed W2 and is alone in W7 (the peers skipped it): its series is shorter than
    // AAL's, and W7 has no AAL bar to compare with.
    Map<Workload, Map<String, List<Sample>>> results = new LinkedHashMap<>();
    results.put(Workload.W1, paths("seekwell", 0.9, 25, "aal", 1.2, 26));
    results.put(Workload.W2, paths("aal", 3.1, 121));
    results.put(Workload.W7, paths("seekwell", 3.9, 155));
    results.put(Workload.W8, paths("aal", 1.2, 26, "seekwell", 0.9, 25, "iceberg-default", 3, 0));
    Path png = directory.resolve("chart.png");

    Chart.write(results, png);

    BufferedImage image = ImageIO.read(png.toFile());
    assertEquals(1520, image.getWidth());
    assertEquals(480, image.getHeight());
  }

  /** Alternating path name, seconds and GETs. */
  private static Map<String, List<Sample>> paths(Object... values) {
    Map<String, List<Sample>> byPath = new LinkedHashMap<>();
    for (int i = 0; i < values.length; i += 3) {
      double seconds = ((Number) values[i + 1]).doubleValue();
      long gets = ((Number) values[i + 2]).longValue();
      byPath.put(
          (String) values[i], List.of(new Sample(seconds, 1, gets, 0, 1 << 20, 1 << 26, 7, -1)));
    }
    return byPath;
  }
}
