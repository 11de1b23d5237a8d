package io.seekwell.it.s3a;

import io.seekwell.hadoop.SeekwellStreamFactory;
import io.seekwell.testing.S3Endpoint;
import io.seekwell.testing.S3TestBucket;
import io.seekwell.testing.SharedS3Server;
import io.seekwell.testing.hadoop.SeekwellS3a;
import java.net.URI;
import org.apache.hadoop.conf.Configuration;

/** S3A against the test server, with its input streams from {@link SeekwellStreamFactory}. */
public final class SeekwellS3aSetup {

  /** The bucket the S3A tests of one JVM share. */
  static final String BUCKET = "sw-s3a-contract";

  private SeekwellS3aSetup() {}

  /** {@code conf} with S3A pointed at the shared test server's bucket, reading through Seekwell. */
  static Configuration configure(Configuration conf) {
    return configure(conf, SharedS3Server.endpoint(), SharedS3Server.bucket(BUCKET));
  }

  /**
   * {@code conf} with S3A pointed at {@code bucket} of {@code endpoint}, reading through Seekwell.
   */
  public static Configuration configure(Configuration conf, S3Endpoint endpoint, String bucket) {
    return SeekwellS3a.configure(conf, endpoint, bucket);
  }

  /**
   * S3A reading {@code bucket} through the fault proxy at {@code proxy}: S3A's own retries off and
   * a short stall floor, so that Seekwell alone gets around the proxy's faults, soon.
   */
  public static Configuration throughFaultProxy(S3TestBucket bucket, URI proxy) {
    Configuration conf =
        configure(new Configuration(), bucket.endpoint().via(proxy), bucket.name());
    conf.set("fs.s3a.attempts.maximum", "1");
    conf.set("fs.s3a.seekwell.client.stall.floor", "300ms");
    return conf;
  }
}
