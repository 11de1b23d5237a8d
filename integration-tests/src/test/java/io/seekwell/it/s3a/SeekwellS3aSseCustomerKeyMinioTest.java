package io.seekwell.it.s3a;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.common.object.CustomerKey;
import io.seekwell.testing.S3TestBucket;
import io.seekwell.testing.TestData;
import io.seekwell.testing.WithS3Server;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileRange;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * S3A with SSE-C ({@code fs.s3a.encryption.algorithm=SSE-C}): an object S3A writes with the
 * customer key is read back through Seekwell's stream, whose GETs carry the key S3A's request
 * factory adds. MinIO accepts SSE-C only over TLS, and S3A trusts certificates only through the
 * JVM's trust store, so this test sets {@code javax.net.ssl.trustStore} and runs in a JVM of its
 * own (the {@code s3a-tls} surefire execution).
 */
@WithS3Server(tls = true)
class SeekwellS3aSseCustomerKeyMinioTest {

  private static final char[] PASSWORD = "seekwell".toCharArray();

  @Test
  void readsWhatS3aWroteWithTheCustomerKey(S3TestBucket bucket, @TempDir Path dir)
      throws Exception {
    trustTheServer(bucket, dir);
    byte[] content = TestData.randomBytes(61, 3 * 1024 * 1024 + 17);
    CustomerKey key = CustomerKey.of(TestData.randomBytes(62, 32));
    org.apache.hadoop.fs.Path file =
        new org.apache.hadoop.fs.Path("s3a://" + bucket.name() + "/secret/data.bin");

    Configuration withKey = configuration(bucket);
    withKey.set("fs.s3a.encryption.algorithm", "SSE-C");
    withKey.set("fs.s3a.encryption.key", key.base64Key());
    FileStatus status;
    try (FileSystem fs = FileSystem.newInstance(file.toUri(), withKey)) {
      try (OutputStream out = fs.create(file)) {
        out.write(content);
      }
      status = fs.getFileStatus(file);
      try (FSDataInputStream in = fs.open(file)) {
        assertEquals(
            "io.seekwell.hadoop.SeekwellS3aInputStream",
            in.getWrappedStream().getClass().getName());
        byte[] whole = new byte[content.length];
        in.readFully(0, whole);
        assertArrayEquals(content, whole);
        List<FileRange> ranges =
            List.of(FileRange.createFileRange(100, 5000), FileRange.createFileRange(2_000_000, 7));
        in.readVectored(ranges, ByteBuffer::allocate);
        for (FileRange range : ranges) {
          ByteBuffer bytes = range.getData().get();
          byte[] expected =
              Arrays.copyOfRange(
                  content, (int) range.getOffset(), (int) range.getOffset() + range.getLength());
          assertEquals(ByteBuffer.wrap(expected), bytes);
        }
      }
    }

    // The object really is SSE-C encrypted: a GET without the key is refused.
    S3Exception refused =
        assertThrows(
            S3Exception.class,
            () ->
                bucket
                    .admin()
                    .getObjectAsBytes(b -> b.bucket(bucket.name()).key("secret/data.bin")));
    assertEquals(400, refused.statusCode());
    // Without the key, S3A's HEAD is refused; given the status, no HEAD is sent and Seekwell's
    // first GET is refused.
    try (FileSystem fs = FileSystem.newInstance(file.toUri(), configuration(bucket))) {
      assertThrows(IOException.class, () -> fs.getFileStatus(file));
      try (FSDataInputStream in = fs.openFile(file).withFileStatus(status).build().get()) {
        assertEquals(
            "io.seekwell.hadoop.SeekwellS3aInputStream",
            in.getWrappedStream().getClass().getName());
        IOException e = assertThrows(IOException.class, in::read);
        assertTrue(
            e.getMessage().contains("400") || e.getMessage().contains("Bad Request"), e::toString);
      }
    }
  }

  private static Configuration configuration(S3TestBucket bucket) {
    Configuration conf =
        SeekwellS3aSetup.configure(new Configuration(), bucket.endpoint(), bucket.name());
    conf.setBoolean("fs.s3a.impl.disable.cache", true);
    return conf;
  }

  /** Makes the JVM's default trust store the one holding the test server's certificate. */
  private static void trustTheServer(S3TestBucket bucket, Path dir)
      throws IOException, GeneralSecurityException {
    Path trustStore = dir.resolve("truststore.p12");
    try (OutputStream out = Files.newOutputStream(trustStore)) {
      bucket.endpoint().certificate().orElseThrow().trustStore().store(out, PASSWORD);
    }
    System.setProperty("javax.net.ssl.trustStore", trustStore.toString());
    System.setProperty("javax.net.ssl.trustStorePassword", new String(PASSWORD));
    System.setProperty("javax.net.ssl.trustStoreType", "PKCS12");
  }
}
