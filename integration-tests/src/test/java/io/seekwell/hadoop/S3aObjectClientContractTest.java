package io.seekwell.hadoop;

import io.seekwell.common.object.GetRequest;
import io.seekwell.common.object.HeadRequest;
import io.seekwell.common.object.ObjectClient;
import io.seekwell.common.object.ObjectContent;
import io.seekwell.common.object.ObjectMetadata;
import io.seekwell.it.s3a.SeekwellS3aSetup;
import io.seekwell.testing.HttpObjectClientContract;
import io.seekwell.testing.S3Endpoint;
import io.seekwell.testing.WithS3Server;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.concurrent.CompletableFuture;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.s3a.S3AFileStatus;
import org.apache.hadoop.fs.s3a.impl.streams.ObjectInputStream;
import org.apache.hadoop.fs.s3a.impl.streams.ObjectInputStreamCallbacks;
import org.apache.hadoop.fs.s3a.impl.streams.ObjectReadParameters;

/**
 * The object client the S3A connector reads through ({@link S3aObjectClient}: GETs sent with S3A's
 * own client and request factory, taken from an S3A stream) against the object client contract. S3A
 * opens Seekwell streams with the length it knows, so the client sends no HEAD; here a HEAD is
 * answered by S3A's {@code getFileStatus}, as S3A itself learns a file's length and ETag.
 */
@WithS3Server
class S3aObjectClientContractTest extends HttpObjectClientContract {

  /** Keeps the callbacks of the last S3A stream opened, so that a test can send GETs with them. */
  public static final class CapturingStreamFactory extends SeekwellStreamFactory {
    static volatile ObjectInputStreamCallbacks callbacks;

    @Override
    public ObjectInputStream readObject(ObjectReadParameters parameters) throws IOException {
      callbacks = parameters.getCallbacks();
      return super.readObject(parameters);
    }
  }

  @Override
  protected boolean givesObjectLength() {
    return true;
  }

  @Override
  protected ObjectClient client(S3Endpoint endpoint) throws Exception {
    Configuration conf = SeekwellS3aSetup.configure(new Configuration(), endpoint, bucketName());
    conf.set("fs.s3a.input.stream.custom.factory", CapturingStreamFactory.class.getName());
    conf.set("fs.s3a.attempts.maximum", "1");
    FileSystem fs = FileSystem.newInstance(URI.create("s3a://" + bucketName() + "/"), conf);
    put("probe.bin", new byte[16]);
    FSDataInputStream probe =
        fs.openFile(new Path("/probe.bin")).opt("fs.option.openfile.length", 16).build().get();
    ObjectInputStreamCallbacks callbacks = CapturingStreamFactory.callbacks;
    S3aObjectClient client = new S3aObjectClient(8);
    return new ObjectClient() {
      @Override
      public CompletableFuture<ObjectMetadata> headObject(HeadRequest request) {
        return CompletableFuture.supplyAsync(
                () -> {
                  try {
                    S3AFileStatus status =
                        (S3AFileStatus) fs.getFileStatus(new Path("/" + request.location().key()));
                    return ObjectMetadata.of(status.getLen(), status.getEtag());
                  } catch (IOException e) {
                    throw new UncheckedIOException(e);
                  }
                })
            .exceptionallyCompose(
                failure ->
                    CompletableFuture.failedFuture(
                        failure.getCause() instanceof UncheckedIOException unchecked
                            ? unchecked.getCause()
                            : failure));
      }

      @Override
      public CompletableFuture<ObjectContent> getObject(GetRequest request) {
        return client.getObject(
            request.withOptions(request.options().withCallerContext(callbacks)));
      }

      @Override
      public void close() {
        client.close();
        try {
          probe.close();
          fs.close();
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
    };
  }
}
