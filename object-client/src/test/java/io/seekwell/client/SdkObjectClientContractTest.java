package io.seekwell.client;

import io.seekwell.common.metrics.Metrics;
import io.seekwell.common.object.GetRequest;
import io.seekwell.common.object.HeadRequest;
import io.seekwell.common.object.ObjectClient;
import io.seekwell.common.object.ObjectContent;
import io.seekwell.common.object.ObjectMetadata;
import io.seekwell.testing.HttpObjectClientContract;
import io.seekwell.testing.S3Endpoint;
import io.seekwell.testing.WithS3Server;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Nested;

/** Each of the SDK object clients (Netty, CRT, sync Apache) against the object client contract. */
class SdkObjectClientContractTest {

  /** The client of one kind; closing it closes the SDK client too. */
  private static ObjectClient open(SdkClientKind kind, S3Endpoint endpoint) {
    SdkClientKind.Clients clients =
        kind.open(endpoint, ObjectClientConfiguration.defaults(), new Metrics());
    return new ObjectClient() {
      @Override
      public CompletableFuture<ObjectMetadata> headObject(HeadRequest request) {
        return clients.client().headObject(request);
      }

      @Override
      public CompletableFuture<ObjectContent> getObject(GetRequest request) {
        return clients.client().getObject(request);
      }

      @Override
      public void close() {
        clients.close();
      }
    };
  }

  /** The contract for one kind of SDK client, whose GETs give the object's length. */
  abstract static class SdkContract extends HttpObjectClientContract {
    private final SdkClientKind kind;

    SdkContract(SdkClientKind kind) {
      this.kind = kind;
    }

    @Override
    protected ObjectClient client(S3Endpoint endpoint) {
      return open(kind, endpoint);
    }

    @Override
    protected boolean givesObjectLength() {
      return true;
    }
  }

  @Nested
  @WithS3Server
  class Netty extends SdkContract {
    Netty() {
      super(SdkClientKind.NETTY);
    }
  }

  @Nested
  @WithS3Server
  class Crt extends SdkContract {
    Crt() {
      super(SdkClientKind.CRT);
    }
  }

  @Nested
  @WithS3Server
  class Sync extends SdkContract {
    Sync() {
      super(SdkClientKind.SYNC);
    }
  }
}
