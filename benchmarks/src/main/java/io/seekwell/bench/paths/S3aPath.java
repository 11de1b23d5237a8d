package io.seekwell.bench.paths;

import io.seekwell.bench.store.RequestCounter;
import io.seekwell.hadoop.SeekwellStreamFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.util.functional.FutureIO;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.io.InputFile;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;

/**
 * Hadoop S3A (hadoop-aws 3.5.0) with one of its input streams ({@link Stream}): the classic one,
 * AAL's analytics stream (3.5.0's default) with its defaults, or Seekwell's S3A stream factory
 * (Seekwell's streams, S3A's client) given Seekwell's settings as {@code fs.s3a.seekwell.*};
 * Parquet files are opened the way parquet-hadoop opens them (its {@link HadoopInputFile}, with the
 * file status, so no HEAD); ORC files are read by ORC's reader through this file system.
 */
final class S3aPath implements ReadPath {

  /** ORC's merge of nearby reads the study recommends, in the tuned peer's reader. */
  private static final String MIN_DISK_SEEK_SIZE = "orc.min.disk.seek.size";

  /** The value of {@link #MIN_DISK_SEEK_SIZE} in the tuned peer: 4 MiB. */
  static final int ORC_TUNED_SEEK_SIZE = 4 << 20;

  private final String bucket;
  private final Configuration conf;
  private final FileSystem fs;
  private final String counterId;
  private final Configuration orcConf = new Configuration(false);

  /** Which of S3A's input streams a path reads through. */
  record Stream(String type, Map<String, String> seekwell) {

    /** S3A's classic stream. */
    static Stream classic() {
      return new Stream("classic", Map.of());
    }

    /** AAL's analytics stream, S3A's default from hadoop-aws 3.4.3 on. */
    static Stream analytics() {
      return new Stream("analytics", Map.of());
    }

    /** Seekwell's S3A stream factory, given {@code settings}. */
    static Stream seekwell(Map<String, String> settings) {
      return new Stream("custom", settings);
    }
  }

  /**
   * S3A reading through {@code stream}; ORC's reader over it merges reads less than {@code
   * orcMinSeekSize} apart (ORC's default is 0).
   */
  S3aPath(
      URI endpoint,
      StaticCredentialsProvider credentials,
      RequestCounter counter,
      String bucket,
      Stream stream,
      int orcMinSeekSize)
      throws IOException {
    this.bucket = bucket;
    orcConf.setInt(MIN_DISK_SEEK_SIZE, orcMinSeekSize);
    this.counterId = S3aRequestCounter.register(counter);
    AwsCredentials keys = credentials.resolveCredentials();
    conf = new Configuration();
    conf.set("fs.s3a.endpoint", endpoint.toString());
    conf.set("fs.s3a.endpoint.region", "us-east-1");
    conf.setBoolean("fs.s3a.path.style.access", true);
    conf.setBoolean("fs.s3a.connection.ssl.enabled", endpoint.getScheme().equals("https"));
    conf.set("fs.s3a.access.key", keys.accessKeyId());
    conf.set("fs.s3a.secret.key", keys.secretAccessKey());
    conf.set("fs.s3a.aws.credentials.provider", SIMPLE_CREDENTIALS);
    conf.set("fs.s3a.input.stream.type", stream.type());
    if (stream.type().equals("custom")) {
      conf.set("fs.s3a.input.stream.custom.factory", SeekwellStreamFactory.class.getName());
      stream.seekwell().forEach((k, v) -> conf.set(SeekwellStreamFactory.SETTINGS_PREFIX + k, v));
    }
    conf.set("fs.s3a.audit.execution.interceptors", S3aRequestCounter.class.getName());
    conf.set(S3aRequestCounter.ID_KEY, counterId);
    // Cached per bucket and user, so parquet-hadoop's HadoopInputFile finds this instance; close()
    // removes it, so every iteration starts cold.
    fs = FileSystem.get(URI.create("s3a://" + bucket + "/"), conf);
  }

  private static final String SIMPLE_CREDENTIALS =
      "org.apache.hadoop.fs.s3a.SimpleAWSCredentialsProvider";

  private FileStatus status(String key, long length) {
    return new FileStatus(length, false, 1, 32 << 20, 0, new Path("s3a://" + bucket + "/" + key));
  }

  @Override
  public PositionalReader open(String key, long length) throws IOException {
    FileStatus status = status(key, length);
    FSDataInputStream stream =
        FutureIO.awaitFuture(fs.openFile(status.getPath()).withFileStatus(status).build());
    return PositionalReader.over(stream, stream::seek);
  }

  @Override
  public InputFile parquetFile(String key, long length) throws IOException {
    return HadoopInputFile.fromStatus(status(key, length), conf);
  }

  @Override
  public OrcInput orcFile(String key, long length) {
    return new OrcInput(fs, status(key, length).getPath(), length, orcConf);
  }

  @Override
  public void close() throws IOException {
    try {
      fs.close();
    } catch (UncheckedIOException e) {
      throw e.getCause();
    } finally {
      S3aRequestCounter.unregister(counterId);
    }
  }
}
