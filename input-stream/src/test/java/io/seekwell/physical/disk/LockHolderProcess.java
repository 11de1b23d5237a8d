package io.seekwell.physical.disk;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

/**
 * Another JVM running {@link DiskTierLockHolder} over a directory: started by {@link #start}, which
 * returns once it holds a slot, and ended by {@link #close}. For one test thread.
 */
final class LockHolderProcess implements AutoCloseable {

  private final Process process;
  private final Path directory;
  private String ready;

  private LockHolderProcess(Process process, Path directory) {
    this.process = process;
    this.directory = directory;
  }

  /** Starts the other JVM over {@code directory} and waits (up to 2 minutes) until it is ready. */
  static LockHolderProcess start(Path directory)
      throws IOException, InterruptedException, ExecutionException, TimeoutException {
    return start(directory, List.of());
  }

  /**
   * As {@link #start(Path)}, the other JVM also writing an object to its slot before it is ready
   * (see {@link DiskTierLockHolder} for {@code arguments}).
   */
  static LockHolderProcess start(Path directory, List<String> arguments)
      throws IOException, InterruptedException, ExecutionException, TimeoutException {
    List<String> command =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                DiskTierLockHolder.class.getName(),
                directory.toString()));
    command.addAll(arguments);
    Process process =
        new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    LockHolderProcess holder = new LockHolderProcess(process, directory);
    try {
      CompletableFuture<String> ready =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  return new BufferedReader(
                          new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))
                      .readLine();
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              });
      String line = ready.get(2, TimeUnit.MINUTES);
      assertTrue(line != null && line.startsWith("ready"), "the other process says: " + line);
      holder.ready = line;
      return holder;
    } catch (InterruptedException
        | ExecutionException
        | TimeoutException
        | RuntimeException
        | AssertionError e) {
      holder.close();
      throw e;
    }
  }

  /** What the other process said once ready: {@code ready}, then what it tells. */
  String ready() {
    return ready;
  }

  /** The slots of the directory that hold the other process's mark: the one it took. */
  List<String> slotsHeld() throws IOException {
    String mark = ".held-by-" + process.pid() + "-";
    try (Stream<Path> files = Files.walk(directory, 2)) {
      return files
          .filter(file -> file.getFileName().toString().startsWith(mark))
          .map(file -> file.getParent().getFileName().toString())
          .sorted()
          .toList();
    }
  }

  /** Ends the other process's input, and waits (up to a minute) for it to release and end. */
  @Override
  public void close() throws IOException {
    process.getOutputStream().close();
    try {
      assertTrue(process.waitFor(1, TimeUnit.MINUTES), "the other process ends");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("Interrupted waiting for the other process to end", e);
    }
  }
}
