package io.seekwell.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.seekwell.common.object.CustomerKey;
import io.seekwell.iceberg.SeekwellS3FileIO;
import io.seekwell.testing.S3TestBucket;
import io.seekwell.testing.TestData;
import io.seekwell.testing.WithS3Server;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.HashMap;
import java.util.Map;
import org.apache.iceberg.aws.s3.S3FileIO;
import org.apache.iceberg.aws.s3.S3FileIOProperties;
import org.apache.iceberg.io.InputFile;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * An object Iceberg's S3FileIO writes with SSE-C ({@code s3.sse.type=custom}) is read back through
 * SeekwellS3FileIO with the same catalog properties (MinIO over TLS).
 */
@WithS3Server(tls = true)
class SeekwellS3FileIOSseCustomerKeyMinioTest {

  @Test
  void readsWhatS3FileIoWroteWithTheCustomerKey(S3TestBucket bucket) throws IOException {
    byte[] content = TestData.randomBytes(51, 300_000);
    CustomerKey key = CustomerKey.of(TestData.randomBytes(52, 32));
    Map<String, String> properties = new HashMap<>();
    properties.put(S3FileIOProperties.SSE_TYPE, S3FileIOProperties.SSE_TYPE_CUSTOM);
    properties.put(S3FileIOProperties.SSE_KEY, key.base64Key());
    properties.put(S3FileIOProperties.SSE_MD5, key.base64KeyMd5());
    String location = "s3://" + bucket.name() + "/secret/data.bin";
    try (S3FileIO writer = new S3FileIO(() -> trustingClient(bucket))) {
      writer.initialize(properties);
      try (OutputStream out = writer.newOutputFile(location).create()) {
        out.write(content);
      }
    }
    try (SeekwellS3FileIO io = new SeekwellS3FileIO(() -> trustingClient(bucket))) {
      io.initialize(properties);
      InputFile file = io.newInputFile(location, content.length);
      try (InputStream in = file.newStream()) {
        assertArrayEquals(content, in.readAllBytes());
      }
    }
    Map<String, String> withoutKey = new HashMap<>();
    try (SeekwellS3FileIO io = new SeekwellS3FileIO(() -> trustingClient(bucket))) {
      io.initialize(withoutKey);
      InputFile file = io.newInputFile(location, content.length);
      assertThrows(IOException.class, () -> file.newStream().read());
    }
  }

  private static S3Client trustingClient(S3TestBucket bucket) {
    Apache5HttpClient.Builder http = Apache5HttpClient.builder();
    bucket.endpoint().certificate().ifPresent(c -> http.tlsTrustManagersProvider(c::trustManagers));
    return bucket.endpoint().configure(S3Client.builder()).httpClientBuilder(http).build();
  }
}
