package io.seekwell.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.common.metrics.Metric;
import io.seekwell.iceberg.SeekwellS3FileIO;
import io.seekwell.testing.IcebergS3Properties;
import io.seekwell.testing.S3Endpoint;
import io.seekwell.testing.S3TestBucket;
import io.seekwell.testing.WithS3Server;
import java.io.IOException;
import java.net.URI;
import java.util.Map;
import java.util.Random;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.IOUtil;
import org.apache.iceberg.io.SeekableInputStream;
import org.apache.iceberg.util.SerializableSupplier;
import org.apache.iceberg.util.SerializationUtil;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.ResponseTransformer;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ServiceClientConfiguration;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadBucketRequest;
import software.amazon.awssdk.services.s3.model.HeadBucketResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;

/**
 * The copies of one {@link SeekwellS3FileIO} in a JVM, as an engine deserializes them on a worker
 * (one per table and query), share its cache: what one copy read, the next reads with no GET. Other
 * FileIOs share nothing with them, closing a copy whose client the shared factory reads with leaves
 * that client open for the others, and once the last copy has closed a new one starts afresh.
 */
@WithS3Server
class SeekwellS3FileIOCopiesMinioTest {

  private static final int SIZE = 300_000;

  /** Longer than a small object: read in several GETs as the stream goes. */
  private static final int LARGE_SIZE = 24 << 20;

  private Map<String, String> properties;
  private String first;
  private String second;
  private byte[] firstBytes;
  private byte[] secondBytes;
  private String large;
  private byte[] largeBytes;

  @BeforeEach
  void put(S3TestBucket bucket) {
    properties = IcebergS3Properties.of(bucket.endpoint());
    Random random = new Random(7);
    firstBytes = new byte[SIZE];
    secondBytes = new byte[SIZE];
    random.nextBytes(firstBytes);
    random.nextBytes(secondBytes);
    bucket.put("copies/first.bin", firstBytes);
    bucket.put("copies/second.bin", secondBytes);
    first = "s3://" + bucket.name() + "/copies/first.bin";
    second = "s3://" + bucket.name() + "/copies/second.bin";
    largeBytes = new byte[LARGE_SIZE];
    random.nextBytes(largeBytes);
    bucket.put("copies/large.bin", largeBytes);
    large = "s3://" + bucket.name() + "/copies/large.bin";
  }

  @Test
  void copiesOfOneFileIoShareWhatTheyCachedAndOtherFileIosDoNot() throws IOException {
    SeekwellS3FileIO original = new SeekwellS3FileIO();
    original.initialize(properties);
    SeekwellS3FileIO earlierQuery = copyOf(original);
    SeekwellS3FileIO laterQuery = copyOf(original);
    SeekwellS3FileIO other = new SeekwellS3FileIO();
    other.initialize(properties);
    try {
      assertArrayEquals(firstBytes, readWhole(earlierQuery, first));
      assertEquals(1, gets(earlierQuery));
      assertEquals(1, gets(original), "a copy reads with the original's factories");

      assertArrayEquals(firstBytes, readWhole(laterQuery, first));
      assertEquals(1, gets(laterQuery), "the later copy read from the shared cache");
      assertEquals(1, gets(original));

      assertArrayEquals(firstBytes, readWhole(other, first));
      assertEquals(1, gets(other), "another FileIO has a cache of its own");
      assertEquals(1, gets(original));
    } finally {
      earlierQuery.close();
      laterQuery.close();
      original.close();
      other.close();
    }
  }

  @Test
  void aCopyThatLentItsClientClosesItOnlyWithTheLastCopy(S3TestBucket bucket) throws IOException {
    SeekwellS3FileIO original = new SeekwellS3FileIO(new ClosingClients(bucket.endpoint()));
    original.initialize(properties);
    SeekwellS3FileIO lender = copyOf(original);
    SeekwellS3FileIO borrower = copyOf(original);
    assertArrayEquals(firstBytes, readWhole(lender, first));
    ClosingClient lent = (ClosingClient) lender.client();
    // A stream of another copy is at the first MiB of a large file when the lender closes.
    byte[] halves = new byte[LARGE_SIZE];
    long getsBeforeTheClose;
    try (SeekableInputStream midway = borrower.newInputFile(large, LARGE_SIZE).newStream()) {
      IOUtil.readFully(midway, halves, 0, 1 << 20);
      getsBeforeTheClose = gets(borrower);

      lender.close();
      // The shared factory reads with the closed copy's client, still open for the others.
      assertFalse(lent.closed);
      IOUtil.readFully(midway, halves, 1 << 20, LARGE_SIZE - (1 << 20));
    }
    assertArrayEquals(largeBytes, halves);
    assertTrue(gets(borrower) > getsBeforeTheClose, "the rest was read after the close");
    long getsBeforeSecond = gets(borrower);
    assertArrayEquals(secondBytes, readWhole(borrower, second));
    assertEquals(getsBeforeSecond + 1, gets(borrower));

    borrower.close();
    assertFalse(lent.closed);
    original.close();
    // The last copy closed the lender's clients, and a new copy starts afresh.
    assertTrue(lent.closed);
    try (SeekwellS3FileIO later = copyOf(original)) {
      assertArrayEquals(firstBytes, readWhole(later, first));
      assertEquals(1, gets(later));
    }
  }

  private static SeekwellS3FileIO copyOf(SeekwellS3FileIO io) {
    return SerializationUtil.deserializeFromBytes(SerializationUtil.serializeToBytes(io));
  }

  private static byte[] readWhole(FileIO io, String location) throws IOException {
    byte[] bytes = new byte[SIZE];
    try (SeekableInputStream in = io.newInputFile(location, SIZE).newStream()) {
      int n = 0;
      while (n < SIZE) {
        int read = in.read(bytes, n, SIZE - n);
        if (read < 0) {
          break;
        }
        n += read;
      }
      assertEquals(-1, in.read());
    }
    return bytes;
  }

  private static long gets(SeekwellS3FileIO io) {
    return io.seekwellMetrics().get(Metric.GET_REQUESTS);
  }

  /** Clients of the test's store that say when they were closed; serializable, like a FileIO. */
  private record ClosingClients(URI uri, String accessKey, String secretKey)
      implements SerializableSupplier<S3Client> {

    ClosingClients(S3Endpoint endpoint) {
      this(endpoint.uri(), endpoint.accessKey(), endpoint.secretKey());
    }

    @Override
    public S3Client get() {
      return new ClosingClient(
          S3Client.builder()
              .endpointOverride(uri)
              .forcePathStyle(true)
              .region(Region.US_EAST_1)
              .credentialsProvider(
                  StaticCredentialsProvider.create(
                      AwsBasicCredentials.create(accessKey, secretKey)))
              .build());
    }
  }

  /** The calls Seekwell's blocking object client makes, passed on; and whether it was closed. */
  private static final class ClosingClient implements S3Client {
    private final S3Client s3;
    private volatile boolean closed;

    ClosingClient(S3Client s3) {
      this.s3 = s3;
    }

    @Override
    public <T> T getObject(
        GetObjectRequest request, ResponseTransformer<GetObjectResponse, T> transformer) {
      return s3.getObject(request, transformer);
    }

    @Override
    public HeadObjectResponse headObject(HeadObjectRequest request) {
      return s3.headObject(request);
    }

    @Override
    public HeadBucketResponse headBucket(HeadBucketRequest request) {
      return s3.headBucket(request);
    }

    @Override
    public S3ServiceClientConfiguration serviceClientConfiguration() {
      return s3.serviceClientConfiguration();
    }

    @Override
    public String serviceName() {
      return s3.serviceName();
    }

    @Override
    public void close() {
      closed = true;
      s3.close();
    }
  }
}
