package io.seekwell.bench.tpch;

import io.seekwell.bench.report.Spread;
import java.util.List;
import java.util.function.ToDoubleFunction;
import java.util.stream.Stream;

/**
 * One read path's TPC-H runs: through the emulated S3 network, and on the loopback floor (none if
 * the floor was not run). Every measure of a query is the median of its rounds. Immutable.
 */
record TpchPathRuns(String path, List<TpchQueryRun> emulated, List<TpchQueryRun> floor) {

  TpchPathRuns {
    emulated = List.copyOf(emulated);
    floor = List.copyOf(floor);
  }

  /** Whether the path is one of Seekwell's. */
  boolean seekwell() {
    return path.startsWith("seekwell");
  }

  /** The table format the path reads. */
  SparkDriver.Format format() {
    return SparkDriver.Format.of(path);
  }

  /** Every run of {@code query}: each round, through the emulated network and on the floor. */
  List<TpchQueryRun> all(String query) {
    return Stream.concat(emulated.stream(), floor.stream())
        .filter(run -> run.query().equals(query))
        .toList();
  }

  /** Whether the floor was run. */
  boolean hasFloor() {
    return !floor.isEmpty();
  }

  /** The query's wall time through the emulated network, in seconds. */
  double seconds(String query) {
    return median(emulated, query, run -> run.millis() / 1000.0);
  }

  /** The query's wall time on loopback, in seconds. */
  double floorSeconds(String query) {
    return median(floor, query, run -> run.millis() / 1000.0);
  }

  /** The query's object GETs. */
  double gets(String query) {
    return median(emulated, query, TpchQueryRun::gets);
  }

  /** The query's bytes from the store, in MB. */
  double megabytes(String query) {
    return median(emulated, query, run -> run.bytes() / 1e6);
  }

  /** The executors' CPU time in the query, in seconds. */
  double executorCpuSeconds(String query) {
    return median(emulated, query, run -> run.executorCpuMillis() / 1000.0);
  }

  /** The executors' garbage-collection time in the query, in seconds. */
  double executorGcSeconds(String query) {
    return median(emulated, query, run -> run.executorGcMillis() / 1000.0);
  }

  /** The executors' CPU time in the query on loopback, in seconds. */
  double floorExecutorCpuSeconds(String query) {
    return median(floor, query, run -> run.executorCpuMillis() / 1000.0);
  }

  /** The executors' garbage-collection time in the query on loopback, in seconds. */
  double floorExecutorGcSeconds(String query) {
    return median(floor, query, run -> run.executorGcMillis() / 1000.0);
  }

  /** The driver's CPU time in the query, in seconds. */
  double driverCpuSeconds(String query) {
    return median(emulated, query, run -> run.driverCpuMillis() / 1000.0);
  }

  /** The sum of the first round's wall times through the emulated network, in seconds. */
  double firstRoundSeconds() {
    return emulated.stream().filter(run -> run.round() == 1).mapToLong(TpchQueryRun::millis).sum()
        / 1000.0;
  }

  /** The sum of {@code measure} over {@code queries}. */
  static double total(List<String> queries, ToDoubleFunction<String> measure) {
    return queries.stream().mapToDouble(measure).sum();
  }

  private static double median(
      List<TpchQueryRun> runs, String query, ToDoubleFunction<TpchQueryRun> measure) {
    List<TpchQueryRun> ofQuery = runs.stream().filter(run -> run.query().equals(query)).toList();
    if (ofQuery.isEmpty()) {
      throw new IllegalArgumentException("No run of " + query);
    }
    return Spread.median(ofQuery, measure);
  }
}
