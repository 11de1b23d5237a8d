package io.seekwell.bench.tpch;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One query of one round, as a Spark driver of the TPC-H benchmark ({@code TpchRun}) wrote it: its
 * wall time, its answer (row count and digest), the CPU time of the driver and of the executors,
 * the executors' garbage-collection time, and the object GETs and bytes the store's proxy counted
 * (0 on the loopback floor, read without the proxy).
 */
record TpchQueryRun(
    int round,
    String query,
    long millis,
    long rows,
    String digest,
    long driverCpuMillis,
    long executorCpuMillis,
    long executorGcMillis,
    long gets,
    long bytes) {

  /** The runs in {@code file}, after its header line (which starts {@code round}). */
  static List<TpchQueryRun> read(Path file) throws IOException {
    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    if (lines.isEmpty() || !lines.get(0).startsWith("round\t")) {
      throw new IOException(file + " does not start with TpchRun's header line");
    }
    List<TpchQueryRun> runs = new ArrayList<>();
    for (String line : lines.subList(1, lines.size())) {
      try {
        runs.add(parse(line));
      } catch (IllegalArgumentException e) {
        throw new IOException(file + ": " + e.getMessage(), e);
      }
    }
    return runs;
  }

  static TpchQueryRun parse(String line) {
    String[] fields = line.split("\t");
    if (fields.length != 10) {
      throw new IllegalArgumentException("Not a line of 10 fields: " + line);
    }
    return new TpchQueryRun(
        Integer.parseInt(fields[0]),
        fields[1],
        Long.parseLong(fields[2]),
        Long.parseLong(fields[3]),
        fields[4],
        Long.parseLong(fields[5]),
        Long.parseLong(fields[6]),
        Long.parseLong(fields[7]),
        Long.parseLong(fields[8]),
        Long.parseLong(fields[9]));
  }
}
