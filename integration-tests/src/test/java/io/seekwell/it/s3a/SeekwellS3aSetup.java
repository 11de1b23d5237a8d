package io.seekwell.it.s3a;

import io.seekwell.hadoop.SeekwellStreamFactory;
import io.seekwell.testing.S3Endpoint;
import io.seekwell.testing.SharedS3Server;
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
    conf.set("fs.s3a.endpoint", endpoint.uri().toString());
    conf.set("fs.s3a.endpoint.region", S3Endpoint.REGION.id());
    conf.setBoolean("fs.s3a.path.style.access", true);
    conf.setBoolean("fs.s3a.connection.ssl.enabled", endpoint.uri().getScheme().equals("https"));
    conf.set("fs.s3a.access.key", endpoint.accessKey());
    conf.set("fs.s3a.secret.key", endpoint.secretKey());
    conf.set(
        "fs.s3a.aws.credentials.provider", "org.apache.hadoop.fs.s3a.SimpleAWSCredentialsProvider");
    conf.set("fs.s3a.input.stream.type", "custom");
    conf.set("fs.s3a.input.stream.custom.factory", SeekwellStreamFactory.class.getName());
    conf.set("fs.s3a.attempts.maximum", "2");
    conf.set("fs.contract.test.fs.s3a", "s3a://" + bucket + "/");
    return conf;
  }
}
