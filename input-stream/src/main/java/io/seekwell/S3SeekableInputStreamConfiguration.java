package io.seekwell;

import io.seekwell.client.ObjectClientConfiguration;
import io.seekwell.common.config.ConnectorConfiguration;
import io.seekwell.physical.PhysicalIOConfiguration;
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
  private final ObjectClientConfiguration client;

  private S3SeekableInputStreamConfiguration(
      PhysicalIOConfiguration physicalIO, ObjectClientConfiguration client) {
    this.physicalIO = physicalIO;
    this.client = client;
  }

  /**
   * Reads the settings ({@code physicalio.*}, {@code client.*}) from {@code configuration}.
   *
   * @throws IllegalArgumentException naming the key, for a value that cannot be used
   */
  public static S3SeekableInputStreamConfiguration fromConfiguration(
      ConnectorConfiguration configuration) {
    return new S3SeekableInputStreamConfiguration(
        PhysicalIOConfiguration.fromConfiguration(configuration),
        ObjectClientConfiguration.fromConfiguration(configuration));
  }

  /** A builder with every setting at its default. */
  public static Builder builder() {
    return new Builder();
  }

  /** Caching and request shaping. */
  public PhysicalIOConfiguration physicalIO() {
    return physicalIO;
  }

  /** Retries and timeouts of the object client the factory builds. */
  public ObjectClientConfiguration client() {
    return client;
  }

  /** Builds a configuration. Not thread-safe. */
  public static final class Builder {
    private PhysicalIOConfiguration physicalIO = PhysicalIOConfiguration.DEFAULT;
    private ObjectClientConfiguration client = ObjectClientConfiguration.defaults();

    private Builder() {}

    /** Caching and request shaping settings. */
    public Builder physicalIO(PhysicalIOConfiguration settings) {
      this.physicalIO = Objects.requireNonNull(settings, "settings");
      return this;
    }

    /** Object client settings. */
    public Builder client(ObjectClientConfiguration settings) {
      this.client = Objects.requireNonNull(settings, "settings");
      return this;
    }

    /** The configuration. */
    public S3SeekableInputStreamConfiguration build() {
      return new S3SeekableInputStreamConfiguration(physicalIO, client);
    }
  }
}
