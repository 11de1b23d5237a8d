package io.seekwell.it;

import io.seekwell.client.ObjectClientConfiguration;
import io.seekwell.client.S3SyncSdkObjectClient;
import io.seekwell.common.object.GetRequest;
import io.seekwell.common.object.HeadRequest;
import io.seekwell.common.object.ObjectClient;
import io.seekwell.common.object.ObjectContent;
import io.seekwell.common.object.ObjectMetadata;
import io.seekwell.iceberg.SeekwellS3FileIO;
import io.seekwell.testing.HttpObjectClientContract;
import io.seekwell.testing.S3Endpoint;
import io.seekwell.testing.WithS3Server;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The object client a {@link SeekwellS3FileIO} reads through (Seekwell's sync client over the S3
 * client Iceberg builds from its catalog properties) against the object client contract.
 */
@WithS3Server
class IcebergFileIoObjectClientContractTest extends HttpObjectClientContract {

  @Override
  protected boolean givesObjectLength() {
    return true;
  }

  @Override
  protected ObjectClient client(S3Endpoint endpoint) {
    SeekwellS3FileIO io = new SeekwellS3FileIO();
    io.initialize(
        Map.of(
            "s3.endpoint", endpoint.uri().toString(),
            "s3.path-style-access", "true",
            "s3.access-key-id", endpoint.accessKey(),
            "s3.secret-access-key", endpoint.secretKey(),
            "client.region", "us-east-1"));
    ObjectClient client =
        new S3SyncSdkObjectClient(io.client(), ObjectClientConfiguration.defaults());
    return new ObjectClient() {
      @Override
      public CompletableFuture<ObjectMetadata> headObject(HeadRequest request) {
        return client.headObject(request);
      }

      @Override
      public CompletableFuture<ObjectContent> getObject(GetRequest request) {
        return client.getObject(request);
      }

      @Override
      public void close() {
        client.close();
        io.close();
      }
    };
  }
}
