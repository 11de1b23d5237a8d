package io.seekwell.testing.hadoop;

import io.seekwell.testing.S3Endpoint;
import org.apache.hadoop.conf.Configuration;

/** The S3A settings that read a test store through Seekwell's stream factory. */
public final class SeekwellS3a {

  private SeekwellS3a() {}

  /**
   * {@code conf} with S3A pointed at {@code bucket} of {@code endpoint}, reading through Seekwell's
   * {@code io.seekwell.hadoop.SeekwellStreamFactory} (which the caller puts on the class path).
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
    conf.set("fs.s3a.input.stream.custom.factory", "io.seekwell.hadoop.SeekwellStreamFactory");
    conf.set("fs.s3a.attempts.maximum", "2");
    conf.set("fs.contract.test.fs.s3a", "s3a://" + bucket + "/");
    return conf;
  }
}
