package io.seekwell.hadoop;

import io.seekwell.DiskCacheScope;
import io.seekwell.InputPolicy;
import io.seekwell.OpenStreamInformation;
import io.seekwell.RequestCallback;
import io.seekwell.S3SeekableInputStreamConfiguration;
import io.seekwell.S3SeekableInputStreamFactory;
import io.seekwell.S3URI;
import io.seekwell.common.ByteRange;
import io.seekwell.common.config.ConnectorConfiguration;
import io.seekwell.common.metrics.Metrics;
import io.seekwell.common.object.ObjectMetadata;
import java.io.IOException;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.StreamCapabilities;
import org.apache.hadoop.fs.s3a.Constants;
import org.apache.hadoop.fs.s3a.S3AInputPolicy;
import org.apache.hadoop.fs.s3a.S3ObjectAttributes;
import org.apache.hadoop.fs.s3a.impl.streams.AbstractObjectInputStreamFactory;
import org.apache.hadoop.fs.s3a.impl.streams.InputStreamType;
import org.apache.hadoop.fs.s3a.impl.streams.ObjectInputStream;
import org.apache.hadoop.fs.s3a.impl.streams.ObjectReadParameters;
import org.apache.hadoop.fs.s3a.impl.streams.StreamFactoryRequirements;
import org.apache.hadoop.fs.s3a.impl.streams.StreamIntegration;
import org.apache.hadoop.fs.s3a.statistics.S3AInputStreamStatistics;

/**
 * S3A's input streams backed by Seekwell. Enable with {@code fs.s3a.input.stream.type=custom} and
 * {@code fs.s3a.input.stream.custom.factory=io.seekwell.hadoop.SeekwellStreamFactory}; Seekwell
 * settings are read from {@code fs.s3a.seekwell.*} (for example {@code
 * fs.s3a.seekwell.physicalio.max.memory.limit}). One Seekwell factory, with one memory-bounded
 * cache, serves every stream of the file system; GETs go through S3A's own client, credentials,
 * encryption settings and audit spans, with the length and ETag S3A already has (no HEAD), and
 * Seekwell holds at most three quarters of S3A's connections ({@code fs.s3a.connection.maximum}) at
 * once.
 *
 * <p>S3A creates and stops it with the file system. Thread-safe.
 */
public class SeekwellStreamFactory extends AbstractObjectInputStreamFactory {

  /** The prefix of Seekwell's settings in the Hadoop configuration. */
  public static final String SETTINGS_PREFIX = "fs.s3a.seekwell.";

  /**
   * The scope in which every stream factory of this JVM shares its disk cache directory ({@code
   * fs.s3a.seekwell.physicalio.disk.cache.dir}). S3A makes one factory per file system instance
   * (per bucket and user), from configuration alone, so no caller could hand them a scope: without
   * this one, each would take a slot of the directory of its own. It holds no cache while no
   * factory has the directory open; the last factory to stop closes the cache and frees the slot.
   * The Iceberg connector keeps a scope of its own: a JVM that reads through both takes two slots
   * of a directory they share.
   */
  private static final DiskCacheScope DISK_CACHES = new DiskCacheScope();

  private volatile S3SeekableInputStreamFactory seekwell;

  /** Created by S3A from {@code fs.s3a.input.stream.custom.factory}. */
  public SeekwellStreamFactory() {
    super("SeekwellStreamFactory");
  }

  /**
   * Reads the Seekwell settings and creates the shared Seekwell factory.
   *
   * @throws IllegalArgumentException naming the key, for a setting that cannot be used
   */
  @Override
  protected void serviceInit(Configuration conf) throws Exception {
    super.serviceInit(conf);
    // Keys keep their prefix so that an error names the key as the user wrote it.
    Map<String, String> settings = new HashMap<>();
    conf.getPropsWithPrefix(SETTINGS_PREFIX)
        .forEach((key, value) -> settings.put(SETTINGS_PREFIX + key, value));
    S3SeekableInputStreamConfiguration read =
        S3SeekableInputStreamConfiguration.fromConfiguration(
            ConnectorConfiguration.of(settings, SETTINGS_PREFIX));
    // GETs go through S3A's client: a share of its pool, so that none waits there for a connection.
    S3SeekableInputStreamConfiguration configuration =
        read.withClient(
            read.client()
                .sharingPoolOf(
                    conf.getInt(
                        Constants.MAXIMUM_CONNECTIONS, Constants.DEFAULT_MAXIMUM_CONNECTIONS)));
    seekwell =
        new S3SeekableInputStreamFactory(
            new S3aObjectClient(configuration.client().maxConnections()),
            configuration,
            DISK_CACHES);
  }

  @Override
  protected void serviceStop() throws Exception {
    if (seekwell != null) {
      seekwell.close();
    }
    super.serviceStop();
  }

  @Override
  public ObjectInputStream readObject(ObjectReadParameters parameters) throws IOException {
    S3ObjectAttributes attributes = parameters.getObjectAttributes();
    S3AInputStreamStatistics statistics = parameters.getStreamStatistics();
    Metrics resilience = new Metrics();
    OpenStreamInformation.Builder open =
        OpenStreamInformation.builder()
            .streamMetrics(resilience)
            .inputPolicy(policy(parameters.getContext().getInputPolicy()))
            .callerContext(parameters.getCallbacks())
            .requestCallback(
                new RequestCallback() {
                  // S3A counts each GET as a stream (re)opened.
                  @Override
                  public void onGetRequest(S3URI uri, ByteRange range) {
                    statistics.streamOpened();
                  }
                });
    String etag = attributes.getETag();
    if (etag == null || etag.isEmpty()) {
      open.objectLength(attributes.getLen());
    } else {
      open.objectMetadata(ObjectMetadata.of(attributes.getLen(), etag));
    }
    S3URI uri = S3URI.of(attributes.getBucket(), attributes.getKey());
    return new SeekwellS3aInputStream(
        parameters, seekwell.createStream(uri, open.build()), resilience);
  }

  /**
   * S3A folds the columnar read policies ({@code parquet}, {@code orc}, {@code columnar}, {@code
   * vector}) into {@code random}; for them and for the default, Seekwell decides by the object's
   * name (the Parquet plug-in for {@code .parquet}, the ORC plug-in for {@code .orc}, a read-ahead
   * window only once reads are sequential). {@code sequential} and {@code whole-file} get the
   * read-ahead window at once.
   */
  static InputPolicy policy(S3AInputPolicy s3aPolicy) {
    return s3aPolicy == S3AInputPolicy.Sequential ? InputPolicy.SEQUENTIAL : InputPolicy.DEFAULT;
  }

  @Override
  public boolean hasCapability(String capability) {
    return isStreamCapability(capability) || super.hasCapability(capability);
  }

  /** What Seekwell's streams add to S3A's: read-ahead, unbuffer and vectored reads. */
  static boolean isStreamCapability(String capability) {
    return switch (capability.toLowerCase(Locale.ROOT)) {
      case StreamCapabilities.READAHEAD,
          StreamCapabilities.UNBUFFER,
          StreamCapabilities.VECTOREDIO ->
          true;
      default -> false;
    };
  }

  @Override
  public InputStreamType streamType() {
    return InputStreamType.Custom;
  }

  /** No S3A threads: Seekwell fetches on its own; vectored ranges are merged by Seekwell. */
  @Override
  public StreamFactoryRequirements factoryRequirements() {
    return new StreamFactoryRequirements(
        0, 0, StreamIntegration.populateVectoredIOContext(getConfig()));
  }
}
