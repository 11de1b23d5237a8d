package io.seekwell.hadoop;

import io.seekwell.common.Version;
import java.io.IOException;
import java.net.URI;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FilterFileSystem;
import org.apache.hadoop.fs.UnsupportedFileSystemException;
import org.apache.hadoop.util.VersionInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Warns once per JVM when Seekwell's S3A connector is on the class path of a Hadoop whose S3A has
 * no custom input stream type (before hadoop-aws 3.4.2, as in Spark 4.0): such an S3A ignores
 * {@code fs.s3a.input.stream.type=custom}, never loads {@link SeekwellStreamFactory}, and would
 * read with its classic stream without a word.
 *
 * <p>Hadoop instantiates every file system listed in {@code
 * META-INF/services/org.apache.hadoop.fs.FileSystem} the first time it looks up a scheme; this
 * class is listed there only to be asked at that moment. It is not a file system: its scheme,
 * {@value #SCHEME}, cannot be opened. Thread-safe.
 */
public final class S3aStreamSupportCheck extends FilterFileSystem {

  /** The scheme Hadoop files this class under; opening it fails. */
  public static final String SCHEME = "seekwell-s3a-check";

  /** The class every S3A with the custom stream type has (hadoop-aws 3.4.2 and later). */
  static final String STREAM_FACTORY_SPI =
      "org.apache.hadoop.fs.s3a.impl.streams.ObjectInputStreamFactory";

  private static final String S3A_FILE_SYSTEM = "org.apache.hadoop.fs.s3a.S3AFileSystem";
  private static final Logger LOG = LoggerFactory.getLogger(S3aStreamSupportCheck.class);
  private static final AtomicBoolean CHECKED = new AtomicBoolean();

  /** Created by Hadoop's service loader; logs the warning the first time, if there is one. */
  public S3aStreamSupportCheck() {
    if (CHECKED.compareAndSet(false, true)) {
      warning(S3aStreamSupportCheck.class.getClassLoader(), VersionInfo.getVersion())
          .ifPresent(LOG::warn);
    }
  }

  /**
   * The warning for the S3A that {@code loader} sees, if it has no custom stream type; empty when
   * S3A has it or is not there at all.
   */
  static Optional<String> warning(ClassLoader loader, String hadoopVersion) {
    if (!loadable(S3A_FILE_SYSTEM, loader) || loadable(STREAM_FACTORY_SPI, loader)) {
      return Optional.empty();
    }
    return Optional.of(
        "Seekwell "
            + Version.current()
            + ": the S3A of Hadoop "
            + hadoopVersion
            + " has no custom input stream type (it came with hadoop-aws 3.4.2), so it ignores"
            + " fs.s3a.input.stream.type=custom and reads with its own stream, not Seekwell's."
            + " Use hadoop-aws 3.4.2 or later, or on Spark 4.0 Seekwell's Iceberg connector.");
  }

  private static boolean loadable(String className, ClassLoader loader) {
    try {
      Class.forName(className, false, loader);
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      LOG.debug("{} is not loadable: {}", className, e.toString());
      return false;
    }
  }

  @Override
  public String getScheme() {
    return SCHEME;
  }

  /**
   * @throws UnsupportedFileSystemException always: this is not a file system
   */
  @Override
  public void initialize(URI name, Configuration conf) throws IOException {
    throw new UnsupportedFileSystemException(
        name + ": " + SCHEME + " is not a file system; Seekwell registers it only to check S3A");
  }
}
