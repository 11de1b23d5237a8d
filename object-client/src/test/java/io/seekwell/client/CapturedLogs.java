package io.seekwell.client;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.List;
import org.slf4j.LoggerFactory;

/**
 * The DEBUG lines of the resilience layer while it is open: Logback's list appender on the logger
 * of {@code io.seekwell.client}, whose level is DEBUG until {@link #close()} restores it.
 */
final class CapturedLogs implements AutoCloseable {

  private final Logger logger = (Logger) LoggerFactory.getLogger("io.seekwell.client");
  private final ListAppender<ILoggingEvent> appender = new ListAppender<>();
  private final Level before = logger.getLevel();

  CapturedLogs() {
    appender.start();
    logger.addAppender(appender);
    logger.setLevel(Level.DEBUG);
  }

  /** The DEBUG lines logged so far, formatted. */
  List<String> debugLines() {
    synchronized (appender.list) {
      return appender.list.stream()
          .filter(event -> event.getLevel() == Level.DEBUG)
          .map(ILoggingEvent::getFormattedMessage)
          .toList();
    }
  }

  /** The one DEBUG line that contains {@code text}; fails if there is none or more than one. */
  String line(String text) {
    List<String> matching = debugLines().stream().filter(line -> line.contains(text)).toList();
    if (matching.size() != 1) {
      throw new AssertionError(
          matching.size() + " DEBUG lines contain \"" + text + "\" in " + debugLines());
    }
    return matching.get(0);
  }

  @Override
  public void close() {
    logger.setLevel(before);
    logger.detachAppender(appender);
    appender.stop();
  }
}
