package io.seekwell.bench;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The loop every benchmark runs: its warm-up rounds, then its measured rounds, each measuring every
 * path once, and the samples of the measured rounds collected per path. What one measurement does
 * (the workload, the clock, the counted requests and bytes) is the caller's {@link Measurement}.
 * Runs on the calling thread; not thread-safe.
 */
public final class Runner {

  /** One measurement of a path; {@code round} is 0 or less for a warm-up. */
  @FunctionalInterface
  public interface Measurement<S> {
    S measure(String path, int round) throws IOException, InterruptedException;
  }

  /** Told of a path whose measurement failed; the path is then not measured again. */
  @FunctionalInterface
  public interface Failures {
    void failed(String path, Exception error);
  }

  /** In which order a round measures the paths. */
  public enum Order {
    /** As given, every round. */
    AS_GIVEN,
    /** Rotated by one every round, so that no path always follows the same one. */
    ROTATED
  }

  private final List<String> paths;
  private final int warmups;
  private final int rounds;
  private final Order order;

  /** {@code warmups} unmeasured rounds then {@code rounds} measured ones over {@code paths}. */
  public Runner(List<String> paths, int warmups, int rounds, Order order) {
    this.paths = List.copyOf(paths);
    this.warmups = warmups;
    this.rounds = rounds;
    this.order = order;
  }

  /**
   * Runs every round; the measured samples per path, in the order of the paths given. A failed
   * measurement ends the run.
   */
  public <S> Map<String, List<S>> run(Measurement<S> measurement)
      throws IOException, InterruptedException {
    return run(measurement, null);
  }

  /**
   * Runs every round; the measured samples per path, in the order of the paths given. A path whose
   * measurement fails with an {@link IOException} or a {@link RuntimeException} is told to {@code
   * failures} (if not null; else the run ends) and left out of the rounds to come and the result.
   */
  public <S> Map<String, List<S>> run(Measurement<S> measurement, Failures failures)
      throws IOException, InterruptedException {
    List<String> running = new ArrayList<>(paths);
    Map<String, List<S>> measured = new LinkedHashMap<>();
    for (int round = 1 - warmups; round <= rounds; round++) {
      List<String> roundOrder = new ArrayList<>(running);
      if (order == Order.ROTATED) {
        Collections.rotate(roundOrder, -Math.floorMod(round, Math.max(1, roundOrder.size())));
      }
      for (String path : roundOrder) {
        S sample;
        try {
          sample = measurement.measure(path, round);
        } catch (IOException | RuntimeException e) {
          if (failures == null) {
            throw e;
          }
          failures.failed(path, e);
          running.remove(path);
          measured.remove(path);
          continue;
        }
        if (round > 0) {
          measured.computeIfAbsent(path, p -> new ArrayList<>()).add(sample);
        }
      }
    }
    Map<String, List<S>> inPathOrder = new LinkedHashMap<>();
    for (String path : running) {
      if (measured.containsKey(path)) {
        inPathOrder.put(path, measured.get(path));
      }
    }
    return inPathOrder;
  }
}
