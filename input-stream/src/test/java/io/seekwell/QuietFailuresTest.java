package io.seekwell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.seekwell.common.metrics.Metrics;
import io.seekwell.testing.InMemoryObjectClient;
import java.io.ByteArrayOutputStream;
import java.io.FileNotFoundException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/**
 * A failure the caller gets as an exception is not also printed: nothing reaches standard error or
 * the JDK's loggers (where a cache's default logger would write it) on the way.
 */
class QuietFailuresTest {

  @Test
  void failedOpensTellOnlyTheCaller() throws Exception {
    List<LogRecord> logged = new ArrayList<>();
    Handler recorder =
        new Handler() {
          @Override
          public void publish(LogRecord record) {
            synchronized (logged) {
              logged.add(record);
            }
          }

          @Override
          public void flush() {}

          @Override
          public void close() {}
        };
    recorder.setLevel(Level.ALL);
    Logger root = Logger.getLogger("");
    root.addHandler(recorder);
    PrintStream stderr = System.err;
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    System.setErr(new PrintStream(printed, true, StandardCharsets.UTF_8));
    try (S3SeekableInputStreamFactory factory =
        new S3SeekableInputStreamFactory(
            new InMemoryObjectClient(new Metrics()), S3SeekableInputStreamConfiguration.DEFAULT)) {
      for (int i = 0; i < 4; i++) {
        S3URI missing = S3URI.of("bucket", "missing-" + i + ".parquet");
        assertThrows(FileNotFoundException.class, () -> factory.createStream(missing));
      }
    } finally {
      System.setErr(stderr);
      root.removeHandler(recorder);
    }
    assertEquals("", printed.toString(StandardCharsets.UTF_8));
    assertEquals(
        List.of(),
        logged.stream()
            .filter(record -> record.getLevel().intValue() >= Level.INFO.intValue())
            .map(record -> record.getLoggerName() + ": " + record.getMessage())
            .toList());
  }
}
