package io.seekwell.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * Says every 10 s how far a long step (generating data, uploading it) has come, so that no step of
 * the demo or a benchmark is silent for long. Closing stops it.
 */
public final class Progress implements AutoCloseable {

  private static final long EVERY_SECONDS = 10;

  private final ScheduledExecutorService timer;

  private Progress(String step, Supplier<String> howFar) {
    long started = System.nanoTime();
    timer =
        Executors.newSingleThreadScheduledExecutor(
            runnable -> {
              Thread thread = new Thread(runnable, "progress");
              thread.setDaemon(true);
              return thread;
            });
    timer.scheduleAtFixedRate(
        () ->
            System.out.printf(
                Locale.ROOT,
                "... %s: %s (%d s)%n",
                step,
                howFar.get(),
                TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started)),
        EVERY_SECONDS,
        EVERY_SECONDS,
        TimeUnit.SECONDS);
  }

  /** Reports {@code step} with {@code howFar} every 10 s until closed. */
  public static Progress of(String step, Supplier<String> howFar) {
    return new Progress(step, howFar);
  }

  /** How many MB the files in {@code directory} hold now. */
  public static String megabytesIn(Path directory) {
    try (Stream<Path> files = Files.list(directory)) {
      long bytes =
          files
              .mapToLong(
                  file -> {
                    try {
                      return Files.size(file);
                    } catch (IOException e) {
                      return 0; // being replaced
                    }
                  })
              .sum();
      return String.format(Locale.ROOT, "%.0f MB written", bytes / 1e6);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
