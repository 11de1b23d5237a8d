package io.seekwell.bench.report;

import io.seekwell.bench.paths.Peer;
import io.seekwell.bench.workloads.Sample;
import io.seekwell.bench.workloads.Workload;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.ToDoubleFunction;
import javax.imageio.ImageIO;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.Styler;

/**
 * The reports' charts: the read benchmark's, per workload each path's median time and median GETs
 * relative to AAL's (AAL = 1, lower is better), side by side in one PNG; and the size and style of
 * every report's bar charts ({@link #bars}, {@link #writeSideBySide}).
 */
public final class Chart {

  private static final int WIDTH = 760;
  private static final int HEIGHT = 480;
  private static final double AXIS_FLOOR = 0.005;
  private static final double SMALLEST_BAR = 2 * AXIS_FLOOR;

  /** The path the bars are relative to. */
  private static final String REFERENCE = Peer.AAL.pathName();

  private Chart() {}

  public static void write(Map<Workload, Map<String, List<Sample>>> results, Path png)
      throws IOException {
    writeSideBySide(
        png,
        panel(results, "Time relative to AAL 1.3.1 (lower is better)", Sample::seconds),
        panel(results, "GETs relative to AAL 1.3.1 (lower is better)", Sample::gets));
  }

  /** Writes {@code left} and {@code right} side by side into one PNG. */
  public static void writeSideBySide(Path png, CategoryChart left, CategoryChart right)
      throws IOException {
    System.setProperty("java.awt.headless", "true");
    BufferedImage both = new BufferedImage(2 * WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
    Graphics2D graphics = both.createGraphics();
    try {
      graphics.drawImage(BitmapEncoder.getBufferedImage(left), 0, 0, null);
      graphics.drawImage(BitmapEncoder.getBufferedImage(right), WIDTH, 0, null);
    } finally {
      graphics.dispose();
    }
    ImageIO.write(both, "png", png.toFile());
  }

  /** An empty bar chart of the reports' size and style: legend below, white background. */
  public static CategoryChart bars(String title, String yAxis) {
    CategoryChart chart =
        new CategoryChartBuilder()
            .width(WIDTH)
            .height(HEIGHT)
            .title(title)
            .yAxisTitle(yAxis)
            .build();
    chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
    chart.getStyler().setLegendLayout(Styler.LegendLayout.Horizontal);
    chart.getStyler().setChartBackgroundColor(Color.WHITE);
    return chart;
  }

  private static CategoryChart panel(
      Map<Workload, Map<String, List<Sample>>> results,
      String title,
      ToDoubleFunction<Sample> measure) {
    CategoryChart chart = bars(title, "median / AAL's median (log scale)");
    chart.getStyler().setYAxisLogarithmic(true);
    // Bars start at the axis floor (a log axis has no 0); smaller ratios get the smallest bar.
    chart.getStyler().setYAxisMin(AXIS_FLOOR);
    chart.getStyler().setYAxisDecimalPattern("0.###");
    // Every series needs the same categories: the workloads AAL ran. A path that did not run one
    // of them (skipped or failed) has no bar there.
    List<Workload> workloads =
        results.entrySet().stream()
            .filter(entry -> !entry.getValue().getOrDefault(REFERENCE, List.of()).isEmpty())
            .map(Map.Entry::getKey)
            .toList();
    List<String> categories = workloads.stream().map(Workload::name).toList();
    List<String> paths =
        results.values().stream().flatMap(byPath -> byPath.keySet().stream()).distinct().toList();
    for (String path : paths) {
      List<Double> ratios = new ArrayList<>();
      for (Workload workload : workloads) {
        List<Sample> samples = results.get(workload).get(path);
        double reference = Spread.median(results.get(workload).get(REFERENCE), measure);
        // A log axis cannot show 0: a path with no GETs gets the smallest bar.
        ratios.add(
            samples == null || samples.isEmpty()
                ? null
                : reference == 0
                    ? 1
                    : Math.max(SMALLEST_BAR, Spread.median(samples, measure) / reference));
      }
      if (ratios.stream().anyMatch(Objects::nonNull)) {
        chart.addSeries(path, categories, ratios);
      }
    }
    return chart;
  }
}
