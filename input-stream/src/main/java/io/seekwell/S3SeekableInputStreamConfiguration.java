package io.seekwell;

import io.seekwell.client.ObjectClientConfiguration;
import io.seekwell.common.config.ConnectorConfiguration;
import io.seekwell.logical.LogicalIOConfiguration;
import java.util.Objects;

/**
 * All settings of a {@link S3SeekableInputStreamFactory}. Immutable and thread-safe. Read them from
 * a map with {@link #fromConfiguration} or set them with {@link #builder()}; every key is listed in
 * {@code docs/configuration.md}.
 */
public final class S3SeekableInputStreamConfiguration {

  /** Every setting at its default. */
  public static final S3SeekableInputStreamConfiguration DEFAULT = builder().build();

  private final PhysicalIOConfiguration physicalIO;
  private final DiskCacheConfiguration diskCache;
  private final LogicalIOConfiguration logicalIO;
  private final ObjectClientConfiguration client;
  private final ConnectorConfiguration rawConfiguration;

  private S3SeekableInputStreamConfiguration(Builder builder) {
    this.physicalIO = builder.physicalIO;
    this.diskCache = builder.diskCache;
    this.logicalIO = builder.logicalIO;
    this.client = builder.client;
    this.rawConfiguration = builder.rawConfiguration;
  }

  /**
   * Reads the settings ({@code physicalio.*}, {@code logicalio.*}, {@code client.*}) from {@code
   * configuration}. A key no setting reads is refused here, or, under {@code logicalio.} (where
   * format plug-ins have their keys), when a factory is made with this configuration.
   *
   * @throws IllegalArgumentException naming the key, for a value that cannot be used or a key that
   *     is not a setting (with the nearest known key)
   */
  public static S3SeekableInputStreamConfiguration fromConfiguration(
      ConnectorConfiguration configuration) {
    Builder builder = builder();
    builder.rawConfiguration = configuration;
    S3SeekableInputStreamConfiguration read =
        builder
            .physicalIO(PhysicalIOConfiguration.fromConfiguration(configuration))
            .diskCache(DiskCacheConfiguration.fromConfiguration(configuration))
            .logicalIO(LogicalIOConfiguration.fromConfiguration(configuration))
            .client(ObjectClientConfiguration.fromConfiguration(configuration))
            .build();
    String pluginKeys = configuration.fullKey(LogicalIOConfiguration.PREFIX);
    configuration.requireEveryKeyRead(key -> key.startsWith(pluginKeys));
    return read;
  }

  /** These settings with the object client's replaced by {@code settings}. */
  public S3SeekableInputStreamConfiguration withClient(ObjectClientConfiguration settings) {
    return toBuilder().client(settings).build();
  }

  /** These settings with the physical IO's replaced by {@code settings}. */
  S3SeekableInputStreamConfiguration withPhysicalIO(PhysicalIOConfiguration settings) {
    return toBuilder().physicalIO(settings).build();
  }

  /** A builder holding these settings and the map they were read from. */
  private Builder toBuilder() {
    Builder builder =
        builder().physicalIO(physicalIO).diskCache(diskCache).logicalIO(logicalIO).client(client);
    builder.rawConfiguration = rawConfiguration;
    return builder;
  }

  /** A builder with every setting at its default. */
  public static Builder builder() {
    return new Builder();
  }

  /** Caching and request shaping. */
  public PhysicalIOConfiguration physicalIO() {
    return physicalIO;
  }

  /** The local disk tier for immutable objects; off by default. */
  public DiskCacheConfiguration diskCache() {
    return diskCache;
  }

  /** Read-ahead: small objects, sequential windows. */
  public LogicalIOConfiguration logicalIO() {
    return logicalIO;
  }

  /** The map the settings were read from, for format plug-ins' own keys. */
  ConnectorConfiguration rawConfiguration() {
    return rawConfiguration;
  }

  /** Retries and timeouts of the object client the factory builds. */
  public ObjectClientConfiguration client() {
    return client;
  }

  /** Builds a configuration. Not thread-safe. */
  public static final class Builder {
    private PhysicalIOConfiguration physicalIO = PhysicalIOConfiguration.DEFAULT;
    private DiskCacheConfiguration diskCache = DiskCacheConfiguration.OFF;
    private LogicalIOConfiguration logicalIO = LogicalIOConfiguration.DEFAULT;
    private ObjectClientConfiguration client = ObjectClientConfiguration.defaults();
    private ConnectorConfiguration rawConfiguration = ConnectorConfiguration.empty();

    private Builder() {}

    /** Caching and request shaping settings. */
    public Builder physicalIO(PhysicalIOConfiguration settings) {
      this.physicalIO = Objects.requireNonNull(settings, "settings");
      return this;
    }

    /** Disk tier settings. */
    public Builder diskCache(DiskCacheConfiguration settings) {
      this.diskCache = Objects.requireNonNull(settings, "settings");
      return this;
    }

    /** Read-ahead settings. */
    public Builder logicalIO(LogicalIOConfiguration settings) {
      this.logicalIO = Objects.requireNonNull(settings, "settings");
      return this;
    }

    /** Object client settings. */
    public Builder client(ObjectClientConfiguration settings) {
      this.client = Objects.requireNonNull(settings, "settings");
      return this;
    }

    /** The configuration. */
    public S3SeekableInputStreamConfiguration build() {
      return new S3SeekableInputStreamConfiguration(this);
    }
  }
}
