package io.seekwell.iceberg;

import io.seekwell.AnnouncedObject;
import io.seekwell.DiskCacheScope;
import io.seekwell.OpenStreamInformation;
import io.seekwell.S3SeekableInputStreamConfiguration;
import io.seekwell.S3SeekableInputStreamFactory;
import io.seekwell.S3URI;
import io.seekwell.common.config.ConnectorConfiguration;
import io.seekwell.common.metrics.MetricsSnapshot;
import io.seekwell.common.object.CustomerKey;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.iceberg.aws.HttpClientProperties;
import org.apache.iceberg.aws.s3.S3FileIOProperties;
import org.apache.iceberg.io.StorageCredential;
import org.apache.iceberg.metrics.MetricsContext;
import software.amazon.awssdk.http.SdkHttpConfigurationOption;

/**
 * What the copies of a {@link SeekwellS3FileIO} in one JVM read with ({@link SharedReads}): its
 * Seekwell settings, SSE-C key and Iceberg metrics context, and one Seekwell factory per client
 * role (the default client, or the client of a storage credential's prefix). A factory reads with
 * the client of the copy that first needed it, the role's lender. Thread-safe; closing it closes
 * the factories (not the clients, which are Iceberg's: {@link SharedReads} closes a lender's once
 * the last copy has left).
 */
final class SeekwellReads implements AutoCloseable {

  /** The prefix of Seekwell's settings among the catalog properties. */
  static final String PREFIX = "seekwell.";

  /** Which of Iceberg's files the FileIO declares immutable, so that they use the disk tier. */
  static final String DISK_CACHE_FILES = "iceberg.disk.cache.files";

  /**
   * Which of Iceberg's files go to the disk tier ({@code seekwell.physicalio.disk.cache.dir}).
   * Iceberg writes every file once under a new name, so all of them may.
   */
  enum DiskCachedFiles {
    /** Data, delete and metadata files. */
    ALL,
    /** Table metadata ({@code .metadata.json}), manifest lists and manifests, statistics files. */
    METADATA,
    /** None. */
    NONE;

    boolean covers(String location) {
      return switch (this) {
        case ALL -> true;
        case METADATA ->
            location.endsWith(".metadata.json")
                || location.endsWith(".avro")
                || location.endsWith(".puffin");
        case NONE -> false;
      };
    }
  }

  /**
   * The scope in which every Seekwell factory of this JVM shares its disk cache directory ({@code
   * seekwell.physicalio.disk.cache.dir}). Engines make FileIOs from catalog properties alone, many
   * per JVM (one per catalog and per table broadcast to an executor, often never closed), so no
   * caller could hand them a scope: without this one, each would take a slot of the directory of
   * its own. It holds no cache while no factory has the directory open; the last factory to close
   * closes the cache and frees the slot. The S3A connector keeps a scope of its own: a JVM that
   * reads through both takes two slots of a directory they share.
   */
  private static final DiskCacheScope DISK_CACHES = new DiskCacheScope();

  private final S3SeekableInputStreamConfiguration configuration;
  private final CustomerKey customerKey;
  private final DiskCachedFiles diskCachedFiles;
  private final MetricsContext metrics;
  private final Map<ClientRole, S3SeekableInputStreamFactory> factories = new ConcurrentHashMap<>();
  private final Set<SeekwellS3FileIO> lenders = ConcurrentHashMap.newKeySet();
  private final TaskGroups taskGroups = new TaskGroups();
  private volatile boolean closed;
  private int copies; // changed only inside SharedReads' atomic updates of this reads' entry

  SeekwellReads(Map<String, String> properties) {
    ConnectorConfiguration settings = ConnectorConfiguration.of(properties, PREFIX);
    this.diskCachedFiles =
        settings.getEnum(DISK_CACHE_FILES, DiskCachedFiles.class, DiskCachedFiles.ALL);
    this.configuration =
        sharingIcebergsPool(
            S3SeekableInputStreamConfiguration.fromConfiguration(settings), properties);
    S3FileIOProperties s3Properties = new S3FileIOProperties(properties);
    this.customerKey =
        S3FileIOProperties.SSE_TYPE_CUSTOM.equals(s3Properties.sseType())
            ? CustomerKey.fromBase64(s3Properties.sseKey())
            : null;
    this.metrics = IcebergMetrics.context(properties);
  }

  /**
   * {@code read} with the object client holding at most three quarters of the connections of
   * Iceberg's Apache HTTP client ({@code http-client.apache.max-connections}, or the SDK's
   * default), through which Seekwell's GETs go. Iceberg's URLConnection client has no pool to
   * share.
   */
  private static S3SeekableInputStreamConfiguration sharingIcebergsPool(
      S3SeekableInputStreamConfiguration read, Map<String, String> properties) {
    String clientType =
        properties.getOrDefault(
            HttpClientProperties.CLIENT_TYPE, HttpClientProperties.CLIENT_TYPE_DEFAULT);
    if (!clientType.equals(HttpClientProperties.CLIENT_TYPE_APACHE)) {
      return read;
    }
    String configured = properties.get(HttpClientProperties.APACHE_MAX_CONNECTIONS);
    int pool =
        configured != null
            ? Integer.parseInt(configured.trim())
            : SdkHttpConfigurationOption.GLOBAL_HTTP_DEFAULTS.get(
                SdkHttpConfigurationOption.MAX_CONNECTIONS);
    return read.withClient(read.client().sharingPoolOf(pool));
  }

  /**
   * The factory reading {@code location}, for the client role Iceberg reads it with; made on first
   * use over {@code copy}'s client for the location ({@link LentClient}), which {@code copy} then
   * lends to it.
   */
  S3SeekableInputStreamFactory factory(String location, SeekwellS3FileIO copy) {
    if (closed) {
      throw new IllegalStateException("The FileIO is closed");
    }
    return factories.computeIfAbsent(
        ClientRole.of(location, copy.credentials()),
        role -> {
          // Built now, as Iceberg builds its clients lazily: a first GET that waited for it could
          // be taken for a slow one and hedged.
          copy.client(location);
          S3SeekableInputStreamFactory made =
              new S3SeekableInputStreamFactory(
                  new LentClient(copy, location), configuration, DISK_CACHES);
          lenders.add(copy);
          return made;
        });
  }

  /** Whether a factory reads with {@code copy}'s clients. */
  boolean lentBy(SeekwellS3FileIO copy) {
    return lenders.contains(copy);
  }

  /** The copies whose clients the factories read with. */
  Set<SeekwellS3FileIO> lenders() {
    return lenders;
  }

  /** One more copy reads with this; returns how many do. */
  int joined() {
    return ++copies;
  }

  /** One copy fewer reads with this; returns how many still do. */
  int left() {
    return --copies;
  }

  /** Forgets what every factory cached of {@code location}. */
  void forget(String location) {
    S3URI uri = S3URI.parse(location);
    factories.values().forEach(factory -> factory.invalidate(uri));
  }

  /**
   * How to open a stream of the file at {@code location}: its length if known, the SSE-C key if
   * any, and whether it goes to the disk tier.
   */
  OpenStreamInformation openInformation(String location, long knownLength) {
    OpenStreamInformation.Builder builder =
        OpenStreamInformation.builder().immutable(diskCachedFiles.covers(location));
    if (knownLength >= 0) {
      builder.objectLength(knownLength);
    }
    if (customerKey != null) {
      builder.customerKey(customerKey);
    }
    return builder.build();
  }

  /**
   * The group of files created on this thread with their lengths that {@code uri}, of {@code
   * length} bytes and read with {@code factory}, joins; null once the FileIO is closed.
   */
  TaskGroups.Group joinTaskGroup(S3URI uri, long length, S3SeekableInputStreamFactory factory) {
    if (closed) {
      return null;
    }
    return taskGroups.join(
        factory, new AnnouncedObject(uri, openInformation(uri.toString(), length)));
  }

  MetricsContext metrics() {
    return metrics;
  }

  /** The counters of every factory, added up. */
  MetricsSnapshot seekwellMetrics() {
    return factories.values().stream()
        .map(S3SeekableInputStreamFactory::getMetrics)
        .reduce(MetricsSnapshot.zero(), MetricsSnapshot::plus);
  }

  @Override
  public void close() {
    closed = true;
    taskGroups.close();
    factories.values().forEach(S3SeekableInputStreamFactory::close);
    factories.clear();
  }

  /**
   * Which of a FileIO's clients Iceberg reads a location with: the one of the storage credential
   * with the longest prefix of the location (the last of equal ones, as Iceberg keeps it), or the
   * default client ({@code prefix} null). Refreshed credentials keep their role: Iceberg reads with
   * the same client.
   */
  private record ClientRole(String prefix) {

    static ClientRole of(String location, List<StorageCredential> credentials) {
      String longest = null;
      for (StorageCredential candidate : credentials) {
        String prefix = candidate.prefix();
        if (location.startsWith(prefix)
            && (longest == null || prefix.length() >= longest.length())) {
          longest = prefix;
        }
      }
      return new ClientRole(longest);
    }
  }
}
