package io.seekwell.bench.tpch;

import io.seekwell.bench.report.Chart;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.knowm.xchart.CategoryChart;

/**
 * The TPC-H report's chart: each path's wall time per query through the emulated network, and its
 * total there and on the floor, side by side.
 */
final class TpchChart {

  private TpchChart() {}

  static void write(List<String> queries, List<TpchPathRuns> paths, Path png) throws IOException {
    CategoryChart perQuery =
        Chart.bars("Wall time per query, through the emulated S3 network", "seconds");
    for (TpchPathRuns path : paths) {
      perQuery.addSeries(path.path(), queries, queries.stream().map(path::seconds).toList());
    }
    CategoryChart totals = Chart.bars("All queries: emulated S3 and the loopback floor", "seconds");
    List<String> names = paths.stream().map(TpchPathRuns::path).toList();
    totals.addSeries(
        "emulated S3",
        names,
        paths.stream().map(path -> TpchPathRuns.total(queries, path::seconds)).toList());
    if (paths.stream().allMatch(TpchPathRuns::hasFloor)) {
      totals.addSeries(
          "loopback floor",
          names,
          paths.stream().map(path -> TpchPathRuns.total(queries, path::floorSeconds)).toList());
    }
    Chart.writeSideBySide(png, perQuery, totals);
  }
}
