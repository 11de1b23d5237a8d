package io.seekwell.hadoop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.UnsupportedFileSystemException;
import org.junit.jupiter.api.Test;

class S3aStreamSupportCheckTest {

  /** A class loader that cannot find {@code hidden}, as on a Hadoop without that class. */
  private static ClassLoader without(String hidden) {
    return new ClassLoader(S3aStreamSupportCheckTest.class.getClassLoader()) {
      @Override
      protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        if (name.equals(hidden)) {
          throw new ClassNotFoundException(name);
        }
        return super.loadClass(name, resolve);
      }
    };
  }

  @Test
  void anS3aWithTheCustomStreamTypeGetsNoWarning() {
    assertEquals(
        Optional.empty(),
        S3aStreamSupportCheck.warning(S3aStreamSupportCheck.class.getClassLoader(), "3.4.3"));
  }

  @Test
  void anS3aWithoutTheCustomStreamTypeIsWarnedAboutNamingTheHadoopVersion() {
    String warning =
        S3aStreamSupportCheck.warning(without(S3aStreamSupportCheck.STREAM_FACTORY_SPI), "3.4.1")
            .orElseThrow();
    assertTrue(warning.contains("Hadoop 3.4.1"), warning);
    assertTrue(warning.contains("ignores fs.s3a.input.stream.type=custom"), warning);
    assertTrue(warning.contains("hadoop-aws 3.4.2 or later"), warning);
  }

  @Test
  void noS3aAtAllGetsNoWarning() {
    assertEquals(
        Optional.empty(),
        S3aStreamSupportCheck.warning(without("org.apache.hadoop.fs.s3a.S3AFileSystem"), "3.4.1"));
  }

  @Test
  void hadoopFindsTheCheckAmongItsFileSystemsAndItsSchemeCannotBeOpened() throws Exception {
    assertEquals(
        S3aStreamSupportCheck.class,
        FileSystem.getFileSystemClass(S3aStreamSupportCheck.SCHEME, null));
    URI uri = URI.create(S3aStreamSupportCheck.SCHEME + "://anything/");
    UnsupportedFileSystemException error =
        assertThrows(
            UnsupportedFileSystemException.class,
            () -> FileSystem.newInstance(uri, new Configuration(false)));
    assertTrue(error.getMessage().contains("is not a file system"), error.getMessage());
  }
}
