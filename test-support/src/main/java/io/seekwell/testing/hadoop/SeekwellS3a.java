package io.seekwell.testing.hadoop;

import io.seekwell.testing.S3Endpoint;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;

/** The S3A settings that read a test store through Seekwell's stream factory. */
public final class SeekwellS3a {

  private SeekwellS3a() {}

  /**
   * The S3A settings that read {@code endpoint} through Seekwell's {@code
   * io.seekwell.hadoop.SeekwellStreamFactory} (which the caller puts on the class path), in a map
   * the caller may change; a bucket's own {@code fs.s3a.bucket.<bucket>.input.stream.type}
   * overrides the stream for that bucket.
   */
  public static Map<String, String> settings(S3Endpoint endpoint) {
    Map<String, String> settings = new LinkedHashMap<>();
    settings.put("fs.s3a.endpoint", endpoint.uri().toString());
    settings.put("fs.s3a.endpoint.region", S3Endpoint.REGION.id());
    settings.put("fs.s3a.path.style.access", "true");
    settings.put(
        "fs.s3a.connection.ssl.enabled",
        String.valueOf(endpoint.uri().getScheme().equals("https")));
    settings.put("fs.s3a.access.key", endpoint.accessKey());
    settings.put("fs.s3a.secret.key", endpoint.secretKey());
    settings.put(
        "fs.s3a.aws.credentials.provider", "org.apache.hadoop.fs.s3a.SimpleAWSCredentialsProvider");
    settings.put("fs.s3a.input.stream.type", "custom");
    settings.put("fs.s3a.input.stream.custom.factory", "io.seekwell.hadoop.SeekwellStreamFactory");
    return settings;
  }

  /**
   * {@code conf} with {@link #settings} of {@code endpoint}, two attempts per request, and {@code
   * bucket} as Hadoop's contract tests' file system.
   */
  public static Configuration configure(Configuration conf, S3Endpoint endpoint, String bucket) {
    settings(endpoint).forEach(conf::set);
    conf.set("fs.s3a.attempts.maximum", "2");
    conf.set("fs.contract.test.fs.s3a", "s3a://" + bucket + "/");
    return conf;
  }
}
