package io.seekwell.common;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import org.slf4j.LoggerFactory;

/** The version of Seekwell on the class path, as built. Stateless. */
public final class Version {

  private static final String CURRENT = read();

  private Version() {}

  /** The version, such as {@code 0.1.0}; {@code unknown} if the build did not record it. */
  public static String current() {
    return CURRENT;
  }

  private static String read() {
    Properties properties = new Properties();
    try (InputStream in = Version.class.getResourceAsStream("version.properties")) {
      if (in != null) {
        properties.load(in);
      }
    } catch (IOException e) {
      LoggerFactory.getLogger(Version.class).debug("version.properties could not be read", e);
      return "unknown";
    }
    return properties.getProperty("version", "unknown");
  }
}
